// A Prometheus monitor: the server, a preset (cAdvisor container, node_exporter host, JVM, Node.js)
// or any PromQL, the labels that pick the target's series, and a bearer token named, never kept: a
// variable (Settings → Secrets in the desktop app) or a file such as a service account's token.
import { useApiEnv } from '../../../api/context.tsx'
import { CheckAt, SelectAt, TextAt } from '../fields.tsx'
import { child, type Part } from '../part.ts'
import type { MonitorDraft } from '../draft.ts'
import type { MonitorFieldsProps } from './types.ts'

type Prom = Part<MonitorDraft['prometheus']>

const PRESETS = [
  { value: 'container', label: 'container (cAdvisor: CPU, working set, limits)' },
  { value: 'host', label: 'host (node_exporter: CPU busy, memory used)' },
  { value: 'jvm', label: 'JVM (CPU, RSS, heap, GC pauses, threads)' },
  { value: 'nodejs', label: 'Node.js (CPU, RSS, heap, event-loop lag)' },
] as const

/** What is asked: a preset and its rate window, or a query and its series' name. */
function What({ p, id }: { p: Prom; id: string }) {
  if (p.value.by === 'preset')
    return (
      <>
        <SelectAt part={p} k="preset" label="Preset" options={PRESETS} testId={`${id}-prom-preset`} />
        <TextAt
          part={p}
          k="rateWindow"
          label="Rate window (optional)"
          placeholder="1m"
          hint="At least two scrape intervals"
          testId={`${id}-prom-rate-window`}
        />
      </>
    )
  return (
    <>
      <TextAt
        part={p}
        k="query"
        label="PromQL"
        placeholder='sum(rate(http_requests_total{job="shop"}[1m]))'
        testId={`${id}-prom-query`}
      />
      <TextAt
        part={p}
        k="name"
        label="Series name (optional)"
        placeholder="requests_per_second"
        hint="Its unit suffix (_bytes, _seconds, _ratio) formats it"
        testId={`${id}-prom-name`}
      />
    </>
  )
}

/** The bearer token: none, a variable named for Cannonade, or a file. */
function Token({ p, id }: { p: Prom; id: string }) {
  const { mode } = useApiEnv()
  return (
    <div className="grid-3">
      <SelectAt
        part={p}
        k="token"
        label="Bearer token"
        options={[
          { value: 'none', label: 'none' },
          { value: 'env', label: 'from a secret (variable)' },
          { value: 'file', label: 'from a file' },
        ]}
        testId={`${id}-prom-token`}
      />
      {p.value.token === 'env' ? (
        <TextAt
          part={p}
          k="tokenEnv"
          label="Token from secret"
          hint={
            mode === 'desktop'
              ? 'Set its value in Settings → Secrets'
              : 'Export it in the environment of `cannonade serve`'
          }
          testId={`${id}-prom-token-env`}
        />
      ) : null}
      {p.value.token === 'file' ? (
        <TextAt
          part={p}
          k="tokenFile"
          label="Token file (absolute path)"
          placeholder="/var/run/secrets/kubernetes.io/serviceaccount/token"
          testId={`${id}-prom-token-file`}
        />
      ) : null}
    </div>
  )
}

export function PrometheusFields({ monitor, id }: MonitorFieldsProps) {
  const p = child(monitor, 'prometheus', '')
  return (
    <>
      <div className="grid-3">
        <TextAt
          part={p}
          k="url"
          label="Prometheus URL"
          placeholder="http://127.0.0.1:9090"
          testId={`${id}-prom-url`}
        />
        <SelectAt
          part={p}
          k="by"
          label="Read"
          options={[
            { value: 'preset', label: 'a preset' },
            { value: 'query', label: 'a PromQL query' },
          ]}
          error={p.at('query')}
          testId={`${id}-prom-by`}
        />
        <TextAt
          part={p}
          k="labels"
          label="Labels of the target's series"
          placeholder='job=shop, namespace="prod"'
          testId={`${id}-prom-labels`}
        />
      </div>
      <div className="grid-3">
        <What p={p} id={id} />
      </div>
      <Token p={p} id={id} />
      <CheckAt part={p} k="skipTlsVerify" label="Skip TLS verification" testId={`${id}-prom-skip-tls`} />
    </>
  )
}
