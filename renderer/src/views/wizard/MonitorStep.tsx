// Step 3: where each target's CPU and memory come from (Docker, a local process, Cloud Foundry,
// PostgreSQL's connections, Prometheus, Kubernetes pods), with a Test button that asks the engine to take one sample now. One
// editor draws the fields of every kind from its form (./monitor/MonitorFields.tsx).
import { useApi, useAsync } from '../../api/context.tsx'
import { Card } from '../../ui/Primitives.tsx'
import type { Draft, Issues, Patch } from './draft.ts'
import { SelectAt } from './fields.tsx'
import { MONITOR_KIND_OPTIONS, MonitorFields } from './monitor/MonitorFields.tsx'
import { MonitorTest } from './monitor/MonitorTest.tsx'
import { child, draftPart, part, rowOf } from './draftPart.ts'

/** Settings → Cloud Foundry: what a new cloudfoundry monitor starts with. */
type CfDefaults = { api: string; username: string }

/** The monitors a loaded config had beyond the first, named by kind: kept as they are. */
function MoreMonitors({ more, id }: { more: unknown[]; id: string }) {
  if (more.length === 0) return null
  const kinds = more.map((x) => {
    const kind = (x as { kind?: unknown }).kind
    return typeof kind === 'string' ? kind : 'monitor'
  })
  return (
    <p className="muted" data-testid={`${id}-more`}>
      Also from the config, kept as they are: {kinds.join(', ')}
    </p>
  )
}

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
  const target = rowOf(child(draftPart(draft, patch, issues), 'targets'), index)
  if (!target) return null
  const whole = child(target, 'monitor')
  const m = whole.value
  // With more monitors than this one the config holds a list, and this one is its first entry.
  const monitor = m.more.length > 0 ? part(m, whole.set, issues, `${whole.path}.0`) : whole
  const id = `monitor-${index}`
  const specProblems = [...issues.keys()].filter((k) => k.startsWith(monitor.path))
  return (
    <Card title={target.value.name || `Target ${index + 1}`} testId={id}>
      <SelectAt
        part={monitor}
        k="kind"
        label="Resource source"
        options={MONITOR_KIND_OPTIONS}
        onChange={(v) =>
          monitor.set((x) => {
            x.kind = v
            if (v !== 'cloudfoundry') return
            x.cloudfoundry.api ||= cfDefaults.api
            x.cloudfoundry.username ||= cfDefaults.username
          })
        }
        error={whole.at() ?? (monitor !== whole ? monitor.at() : undefined)}
        testId={`${id}-kind`}
      />
      <MonitorFields monitor={monitor} id={id} />
      {m.kind !== 'none' ? <MonitorTest monitor={m} disabled={specProblems.length > 0} id={id} /> : null}
      <MoreMonitors more={m.more} id={id} />
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
