// The Load step's sweep: one run per value of a numeric config path (a study). The values are typed
// as a comma list; the schema checks the shape, and `sweepIssues` checks what only the finished
// config can tell: that the path names a number in it and that every value keeps it valid.
import { issueMessage } from '../../../../engine/config/issue-words.ts'
import { RunConfigV1Schema, STACK_ENV_PATH, type RunConfig } from '../../../../engine/config/schema.ts'

export interface SweepDraft {
  enabled: boolean
  path: string
  values: string
}

export function emptySweep(): SweepDraft {
  return { enabled: false, path: 'load.connections', values: '8, 16, 32, 64' }
}

/** Common sweeps, for the path's suggestions. */
export const SWEEP_SUGGESTIONS = [
  'load.connections',
  'load.rate',
  'load.duration',
  'load.pipelining',
  'targets.0.stack.env.POOL_SIZE',
  'targets.0.stack.env.WORKERS',
  'targets.0.stack.env.THREADS',
  'targets.0.stack.replicas',
  'agents.count',
] as const

/** "8, 16 32" → [8, 16, 32]; anything that is not a number stays NaN so the schema names it. */
export function parseSweepValues(text: string): number[] {
  return text
    .split(/[\s,;]+/)
    .filter((v) => v !== '')
    .map((v) => (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(v) ? Number(v) : Number.NaN))
}

export function sweepInput(s: SweepDraft): { path: string; values: number[] } | undefined {
  return s.enabled ? { path: s.path.trim(), values: parseSweepValues(s.values) } : undefined
}

function read(doc: unknown, path: string): unknown {
  let node = doc
  for (const key of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

function write(doc: Record<string, unknown>, path: string, value: number): void {
  const keys = path.split('.')
  let node: unknown = doc
  for (const key of keys.slice(0, -1)) node = (node as Record<string, unknown>)[key]
  ;(node as Record<string, unknown>)[keys.at(-1) ?? ''] = value
}

/** Problems the schema cannot see, by field, for a config that passed it. */
export function sweepIssues(config: RunConfig): { field: string; message: string }[] {
  const sweep = config.sweep
  if (!sweep) return []
  // As engine/study/sweep.ts: a stack's environment may be swept when the target has a stack.
  const stack = STACK_ENV_PATH.exec(sweep.path)
  if (stack) {
    return config.targets[Number(stack[1])]?.stack
      ? []
      : [{ field: 'sweep.path', message: `targets.${stack[1]} runs on no stack to restart with new values` }]
  }
  if (typeof read(config, sweep.path) !== 'number')
    return [{ field: 'sweep.path', message: `"${sweep.path}" is not a number in this config` }]
  const issues: { field: string; message: string }[] = []
  sweep.values.forEach((value, i) => {
    const doc = structuredClone(config) as unknown as Record<string, unknown>
    delete doc.sweep
    write(doc, sweep.path, value)
    const r = RunConfigV1Schema.safeParse(doc)
    const first = r.success ? null : r.error.issues[0]
    if (first)
      issues.push({
        field: `sweep.values.${i}`,
        message: `${value} makes ${first.path.join('.') || 'the config'} invalid: ${issueMessage(first)}`,
      })
  })
  return issues
}
