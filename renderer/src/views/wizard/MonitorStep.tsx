// Step 3: where each target's CPU and memory come from (Docker, a local process, Cloud Foundry),
// with a Test button that asks the engine to take one sample now.
import { useState } from 'react'
import { useApi, useApiEnv, useAsync } from '../../api/context.tsx'
import { Button, Card } from '../../ui/Common.tsx'
import { CheckboxField, NumberField, optionsOf, SelectField, TextField } from '../../ui/Field.tsx'
import { monitorSpec, type Draft, type Issues, type MonitorDraft, type MonitorKind } from './draft.ts'
import type { Patch } from './draft.ts'

// One label per monitor kind of engine/config/schema-monitor.ts, plus 'none': a new source is a compile
// error here until it has a label (and in monitorDraft.ts and fromConfig.ts).
const KINDS = optionsOf<MonitorKind>({
  none: 'Not monitored',
  docker: 'Docker container / compose project',
  process: 'Local process (PID or port)',
  cloudfoundry: 'Cloud Foundry app',
  postgres: 'PostgreSQL connections (pg_stat_activity)',
  prometheus: 'Prometheus (cAdvisor, node_exporter, JVM, Node.js, any PromQL)',
  kubernetes: 'Kubernetes pods (metrics.k8s.io)',
})

type TestState = { state: 'idle' | 'busy' } | { state: 'done'; ok: boolean; message: string }

/** Settings → Cloud Foundry: what a new cloudfoundry monitor starts with. */
type CfDefaults = { api: string; username: string }

function MonitorEditor({
  draft,
  index,
  patch,
  issues,
  cfDefaults,
}: {
  draft: Draft
  index: number
  patch: Patch
  issues: Issues
  cfDefaults: CfDefaults
}) {
  const api = useApi()
  const { mode } = useApiEnv()
  const [test, setTest] = useState<TestState>({ state: 'idle' })
  const target = draft.targets[index]
  if (!target) return null
  const m = target.monitor
  // With more monitors than this one the config holds a list, and this one is its first entry.
  const whole = `targets.${index}.monitor`
  const prefix = m.more.length > 0 ? `${whole}.0` : whole
  const at = (f: string) => issues.get(`${prefix}.${f}`)
  const set = (change: (m: MonitorDraft) => void) =>
    patch((d) => {
      const t = d.targets[index]
      if (t) change(t.monitor)
    })
  const specProblems = [...issues.keys()].filter((k) => k.startsWith(prefix))
  const handleTest = async () => {
    setTest({ state: 'busy' })
    try {
      const r = await api.monitor.test(monitorSpec(m))
      setTest({
        state: 'done',
        ok: r.ok,
        message: `${r.message}${r.ok ? ` (${r.instances} instance${r.instances === 1 ? '' : 's'})` : ''}`,
      })
    } catch (err) {
      setTest({ state: 'done', ok: false, message: err instanceof Error ? err.message : String(err) })
    }
  }
  return (
    <Card title={`${target.name || `Target ${index + 1}`}`} testId={`monitor-${index}`}>
      <SelectField
        label="Resource source"
        value={m.kind}
        options={KINDS}
        onChange={(v) =>
          set((x) => {
            x.kind = v
            if (v !== 'cloudfoundry') return
            x.cf.api ||= cfDefaults.api
            x.cf.username ||= cfDefaults.username
          })
        }
        error={issues.get(whole) ?? (prefix !== whole ? issues.get(prefix) : undefined)}
        testId={`monitor-${index}-kind`}
      />
      {m.kind === 'docker' ? (
        <div className="grid-3">
          <SelectField
            label="Select by"
            value={m.docker.by}
            options={[
              { value: 'container', label: 'container name or id' },
              { value: 'project', label: 'compose project' },
              { value: 'stack', label: 'bundled stack' },
            ]}
            onChange={(v) => set((x) => void (x.docker.by = v))}
            testId={`monitor-${index}-docker-by`}
          />
          {m.docker.by === 'stack' ? (
            <TextField
              label="Stack"
              value={m.docker.stack}
              placeholder="node-http"
              onChange={(v) => set((x) => void (x.docker.stack = v))}
              error={at('stack') ?? at('container')}
              testId={`monitor-${index}-stack`}
            />
          ) : m.docker.by === 'container' ? (
            <TextField
              label="Container"
              value={m.docker.container}
              placeholder="cannonade-node-http-app-1"
              onChange={(v) => set((x) => void (x.docker.container = v))}
              error={at('container')}
              testId={`monitor-${index}-container`}
            />
          ) : (
            <>
              <TextField
                label="Project"
                value={m.docker.project}
                onChange={(v) => set((x) => void (x.docker.project = v))}
                error={at('project') ?? at('container')}
                testId={`monitor-${index}-project`}
              />
              <TextField
                label="Service (optional)"
                value={m.docker.service}
                onChange={(v) => set((x) => void (x.docker.service = v))}
                error={at('service')}
                testId={`monitor-${index}-service`}
              />
            </>
          )}
        </div>
      ) : null}
      {m.kind === 'docker' ? (
        <CheckboxField
          label="Each process apart (a cluster's workers, as top shows them)"
          checked={m.docker.processes}
          onChange={(v) => set((x) => void (x.docker.processes = v))}
          testId={`monitor-${index}-processes`}
        />
      ) : null}
      {m.kind === 'process' ? (
        <div className="grid-3">
          <SelectField
            label="Select by"
            value={m.process.by}
            options={[
              { value: 'port', label: 'listening port' },
              { value: 'pid', label: 'process id' },
            ]}
            onChange={(v) => set((x) => void (x.process.by = v))}
            testId={`monitor-${index}-process-by`}
          />
          {m.process.by === 'port' ? (
            <NumberField
              label="Port"
              value={m.process.port}
              min={1}
              step={1}
              onChange={(v) => set((x) => void (x.process.port = v))}
              error={at('port') ?? at('pid')}
              testId={`monitor-${index}-port`}
            />
          ) : (
            <NumberField
              label="PID"
              value={m.process.pid}
              min={1}
              step={1}
              onChange={(v) => set((x) => void (x.process.pid = v))}
              error={at('pid')}
              testId={`monitor-${index}-pid`}
            />
          )}
        </div>
      ) : null}
      {m.kind === 'postgres' ? (
        <div className="grid-3">
          <SelectField
            label="Database of"
            value={m.postgres.by}
            options={[
              { value: 'stack', label: 'a bundled stack' },
              { value: 'url', label: 'a postgres:// URL' },
            ]}
            onChange={(v) => set((x) => void (x.postgres.by = v))}
            testId={`monitor-${index}-pg-by`}
          />
          {m.postgres.by === 'stack' ? (
            <TextField
              label="Stack"
              value={m.postgres.stack}
              placeholder="node-http"
              onChange={(v) => set((x) => void (x.postgres.stack = v))}
              error={at('stack') ?? at('url')}
              testId={`monitor-${index}-pg-stack`}
            />
          ) : (
            <>
              <TextField
                label="URL (no password)"
                value={m.postgres.url}
                placeholder="postgres://app@127.0.0.1:5432/shop"
                onChange={(v) => set((x) => void (x.postgres.url = v))}
                error={at('url')}
                testId={`monitor-${index}-pg-url`}
              />
              <TextField
                label="Password variable"
                value={m.postgres.passwordEnv}
                onChange={(v) => set((x) => void (x.postgres.passwordEnv = v))}
                error={at('passwordEnv')}
                testId={`monitor-${index}-pg-password-env`}
              />
            </>
          )}
        </div>
      ) : null}
      {m.kind === 'cloudfoundry' ? (
        <>
          <div className="grid-3">
            <TextField
              label="API endpoint"
              value={m.cf.api}
              placeholder="https://api.cf.example.com"
              onChange={(v) => set((x) => void (x.cf.api = v))}
              error={at('api')}
              testId={`monitor-${index}-cf-api`}
            />
            <TextField
              label="App"
              value={m.cf.app}
              onChange={(v) => set((x) => void (x.cf.app = v))}
              error={at('app')}
              testId={`monitor-${index}-cf-app`}
            />
            <TextField
              label="Space (optional)"
              value={m.cf.space}
              onChange={(v) => set((x) => void (x.cf.space = v))}
              error={at('space')}
              testId={`monitor-${index}-cf-space`}
            />
          </div>
          <div className="grid-3">
            <SelectField
              label="Sign in with"
              value={m.cf.grant}
              options={[
                { value: 'password', label: 'user and password' },
                { value: 'refresh', label: 'refresh token' },
                { value: 'token', label: 'pasted `cf oauth-token`' },
              ]}
              onChange={(v) => set((x) => void (x.cf.grant = v))}
              testId={`monitor-${index}-cf-grant`}
            />
            {m.cf.grant === 'password' ? (
              <>
                <TextField
                  label="User"
                  value={m.cf.username}
                  onChange={(v) => set((x) => void (x.cf.username = v))}
                  error={at('auth.username')}
                  testId={`monitor-${index}-cf-user`}
                />
                <TextField
                  label="Password from secret"
                  value={m.cf.passwordEnv}
                  onChange={(v) => set((x) => void (x.cf.passwordEnv = v))}
                  error={at('auth.passwordEnv')}
                  testId={`monitor-${index}-cf-password-env`}
                />
              </>
            ) : m.cf.grant === 'refresh' ? (
              <TextField
                label="Refresh token from secret"
                value={m.cf.refreshTokenEnv}
                onChange={(v) => set((x) => void (x.cf.refreshTokenEnv = v))}
                error={at('auth.refreshTokenEnv')}
                testId={`monitor-${index}-cf-refresh-env`}
              />
            ) : (
              <TextField
                label="Token from secret"
                value={m.cf.tokenEnv}
                onChange={(v) => set((x) => void (x.cf.tokenEnv = v))}
                error={at('auth.tokenEnv')}
                testId={`monitor-${index}-cf-token-env`}
              />
            )}
          </div>
          <CheckboxField
            label="Skip TLS verification"
            checked={m.cf.skipTlsVerify}
            onChange={(v) => set((x) => void (x.cf.skipTlsVerify = v))}
            testId={`monitor-${index}-cf-skip-tls`}
          />
          <p className="muted">
            Secrets never go into the run config: it names them.{' '}
            {mode === 'desktop'
              ? 'Set their values in Settings → Secrets (kept encrypted by the OS).'
              : 'In web mode, export them in the environment of `cannonade serve`.'}
          </p>
        </>
      ) : null}
      {m.kind !== 'none' ? (
        <div className="actions">
          <Button
            busy={test.state === 'busy'}
            disabled={specProblems.length > 0}
            onClick={() => void handleTest()}
            data-testid={`monitor-${index}-test`}
          >
            Test
          </Button>
          {test.state === 'done' ? (
            <span
              className={test.ok ? 'check-ok' : 'field-error'}
              role="status"
              data-testid={`monitor-${index}-test-result`}
            >
              {test.ok ? '✓ ' : '✗ '}
              {test.message}
            </span>
          ) : null}
        </div>
      ) : null}
      {m.more.length > 0 ? (
        <p className="muted" data-testid={`monitor-${index}-more`}>
          Also from the config, kept as they are:{' '}
          {m.more
            .map((x) => {
              const kind = (x as { kind?: unknown }).kind
              return typeof kind === 'string' ? kind : 'monitor'
            })
            .join(', ')}
        </p>
      ) : null}
    </Card>
  )
}

export function MonitorStep({ draft, patch, issues }: { draft: Draft; patch: Patch; issues: Issues }) {
  const api = useApi()
  const settings = useAsync(() => api.settings.get(), [api])
  const cfDefaults = { api: settings.data?.cfApi ?? '', username: settings.data?.cfUsername ?? '' }
  return (
    <div data-testid="step-monitoring">
      <p className="lead">
        Optional: sample each target's CPU and memory on the run's timeline, to plot throughput against CPU
        and memory against throughput.
      </p>
      {draft.targets.map((_, i) => (
        <MonitorEditor
          key={i}
          draft={draft}
          index={i}
          patch={patch}
          issues={issues}
          cfDefaults={cfDefaults}
        />
      ))}
    </div>
  )
}
