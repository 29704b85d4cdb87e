// The Load step's sweep: one run per value of a config setting (a study), optionally against a
// second setting (`by`: a grid). The values are typed as a comma list (numbers, words, true/false,
// or target sets written `a+b` when the path is `targets`); the schema checks their shape, and
// `sweepIssues` (engine/config/sweep.ts, the code the engine runs the sweep with) what only the
// finished config can tell: that the path names a setting and that every value keeps it valid.
import type { SloMetric, SweepValue } from '#engine/config/schema.ts'

export { sweepIssues } from '#engine/config/sweep.ts'

export interface SweepDraft {
  enabled: boolean
  path: string
  values: string
  /** A second setting: every pair of values runs (a grid). */
  byEnabled: boolean
  byPath: string
  byValues: string
  /** Seconds of warm-up after a stack restarts for a value; '' = the default (10). */
  warmupSeconds: string
  /** A latency target (`slo`): the percentile and its ms; '' ms = none. */
  sloMetric: SloMetric
  sloMs: string
}

export function emptySweep(): SweepDraft {
  return {
    enabled: false,
    path: 'load.connections',
    values: '8, 16, 32, 64',
    byEnabled: false,
    byPath: 'targets.0.stack.env.WORKERS',
    byValues: '1, 2',
    warmupSeconds: '',
    sloMetric: 'p99',
    sloMs: '',
  }
}

/** Common sweeps, for the path's suggestions. */
export const SWEEP_SUGGESTIONS = [
  'load.connections',
  'load.rate',
  'load.duration',
  'load.pipelining',
  'load.keepAlive',
  'targets',
  'targets.0.stack.name',
  'targets.0.stack.replicas',
  'targets.0.stack.env.POOL_SIZE',
  'targets.0.stack.env.WORKERS',
  'targets.0.stack.env.THREADS',
  'targets.0.stack.env.CANNONADE_APP_CPUS',
  'targets.0.body.size',
  'targets.0.body.kind',
  'targets.*.query.iterations',
  'targets.0.stack.replicas',
  'agents.count',
] as const

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i

/**
 * "8, 16 32" → [8, 16, 32]; "node-http, node-cluster" → words; "true, false" → booleans; for the
 * path `targets`, "a, a+b" → target sets. Values of mixed kinds stay mixed, so the schema names them.
 */
export function parseSweepValues(text: string, path = ''): SweepValue[] {
  return text
    .split(/[\s,;]+/)
    .filter((v) => v !== '')
    .map((v): SweepValue => {
      if (path === 'targets') return v.split('+').filter(Boolean)
      if (NUMBER.test(v)) return Number(v)
      if (v === 'true' || v === 'false') return v === 'true'
      return v
    })
}

interface SweepInput {
  path: string
  values: SweepValue[]
  by?: { path: string; values: SweepValue[] }
  warmupSeconds?: number
  slo?: Partial<Record<SloMetric, number>>
}

export function sweepInput(s: SweepDraft): SweepInput | undefined {
  if (!s.enabled) return undefined
  const path = s.path.trim()
  const byPath = s.byPath.trim()
  const warmup = s.warmupSeconds.trim()
  const slo = s.sloMs.trim()
  return {
    path,
    values: parseSweepValues(s.values, path),
    ...(s.byEnabled ? { by: { path: byPath, values: parseSweepValues(s.byValues, byPath) } } : {}),
    // Not a number stays NaN, so the schema names the field.
    ...(warmup !== '' ? { warmupSeconds: NUMBER.test(warmup) ? Number(warmup) : Number.NaN } : {}),
    ...(slo !== '' ? { slo: { [s.sloMetric]: NUMBER.test(slo) ? Number(slo) : Number.NaN } } : {}),
  }
}

/** How a config's sweep is typed back into the form ("run again", templates). */
export function sweepDraftOf(sweep: SweepInput): SweepDraft {
  const text = (values: SweepValue[]) =>
    values.map((v) => (Array.isArray(v) ? v.join('+') : String(v))).join(', ')
  return {
    enabled: true,
    path: sweep.path,
    values: text(sweep.values),
    byEnabled: sweep.by !== undefined,
    byPath: sweep.by?.path ?? emptySweep().byPath,
    byValues: sweep.by ? text(sweep.by.values) : emptySweep().byValues,
    warmupSeconds: sweep.warmupSeconds === undefined ? '' : String(sweep.warmupSeconds),
    ...sloDraftOf(sweep.slo),
  }
}

function sloDraftOf(slo: SweepInput['slo']): Pick<SweepDraft, 'sloMetric' | 'sloMs'> {
  const named = Object.entries(slo ?? {}).find(([, v]) => v !== undefined) as [SloMetric, number] | undefined
  return named ? { sloMetric: named[0], sloMs: String(named[1]) } : { sloMetric: 'p99', sloMs: '' }
}
