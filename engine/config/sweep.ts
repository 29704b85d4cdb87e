// A sweep's runs: one config per value of a setting, or per pair of values of two settings (`by`: a
// grid). Pure, so the wizard checks a sweep with the same code the engine runs it with. A value may
// be a number (connections, POOL_SIZE), a word (a stack name, a body kind, an env setting), a
// boolean, or a set of target names (path `targets`); besides config fields, a path may name a
// query parameter of a target's URL (`targets.0.query.iterations`) or every target at once
// (`targets.*.…`). A value that changes a target's stack (its env, replicas or name) restarts the
// stack before the run, with a stated warm-up (`sweep.warmupSeconds`, default 10 s) recorded as the
// run's warm-up phase.
import { ConfigError, configErrorFromZod } from './errors.ts'
import { RunConfigV1Schema, type RunConfig, type Sweep, type SweepValue } from './schema.ts'

export type { SweepValue }

export interface SweepAxis {
  path: string
  values: SweepValue[]
  /** What the axis is called on a chart: `connections`, `iterations`, `POOL_SIZE`, `stack`. */
  name: string
  /** Every value a number: the axis is a scale (and a knee may be found on it). */
  numeric: boolean
}

/** A stack as one run needs it: (re)started with these settings before the run. */
export interface StackSetting {
  name: string
  native: boolean
  env: Record<string, string | number>
  replicas: number
  /** The port the target's URL expects the stack on (a loopback URL's), null for the stack's own. */
  port: number | null
}

/** The local port a target URL points a stack at: its port on 127.0.0.1, ::1 or localhost. */
export function stackPort(url: string): number | null {
  try {
    const u = new URL(url)
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)) return null
    return u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80
  } catch {
    return null
  }
}

export interface SweepStep {
  index: number
  /** The value of each axis (`sweep`, then `sweep.by`). */
  point: SweepValue[]
  /** The same as words, for names, charts and tables. */
  labels: string[]
  config: RunConfig
  /** Stacks whose settings this step changes from the previous step's: restarted before the run. */
  stacks: StackSetting[]
}

export interface ExpandOptions {
  /** A bundled stack's URL (its manifest's), so a target that moves to another stack follows it. */
  stackUrl?(name: string): string | null
}

/** The warm-up before a run whose stack was (re)started, unless the sweep says otherwise. */
export const DEFAULT_RESTART_WARMUP_SECONDS = 10

const STACK_PATH = /^targets\.(\d+|\*)\.stack\.(name|replicas|env\.[A-Za-z_][A-Za-z0-9_]*)$/
const QUERY_PATH = /^targets\.(\d+|\*)\.query\.([^.]+)$/

export function sweepAxes(sweep: Sweep): SweepAxis[] {
  const axis = (path: string, values: SweepValue[]): SweepAxis => ({
    path,
    values,
    name: axisName(path),
    numeric: values.every((v) => typeof v === 'number'),
  })
  return [axis(sweep.path, sweep.values), ...(sweep.by ? [axis(sweep.by.path, sweep.by.values)] : [])]
}

/** `load.connections` → connections, `targets.0.stack.name` → stack, `targets` → targets. */
export function axisName(path: string): string {
  if (/^targets\.(\d+|\*)\.stack\.name$/.test(path)) return 'stack'
  return path.split('.').at(-1) ?? path
}

export function valueLabel(v: SweepValue): string {
  return Array.isArray(v) ? v.join('+') : String(v)
}

/** Where a value sits on its axis: the number itself, or its index among the axis's values. */
export function axisPosition(axis: Pick<SweepAxis, 'values' | 'numeric'>, v: SweepValue): number {
  if (axis.numeric && typeof v === 'number') return v
  return axis.values.findIndex((w) => JSON.stringify(w) === JSON.stringify(v))
}

/** Does a value on this path change a target's stack (so the stack is restarted for it)? */
export function changesStack(path: string): boolean {
  return STACK_PATH.test(path)
}

type Doc = Record<string, unknown>
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v)
const kindOf = (v: unknown): string => (Array.isArray(v) ? 'list' : typeof v)

/** A value a path cannot take: about the path itself (`path`) or one of its values (`value`). */
class SweepPathError extends Error {
  readonly about: 'path' | 'value'
  constructor(message: string, about: 'path' | 'value' = 'path') {
    super(message)
    this.about = about
  }
}

function targetIndices(doc: Doc, which: string): number[] {
  const targets = doc.targets as Doc[]
  if (which === '*') return targets.map((_, i) => i)
  const i = Number(which)
  if (!targets[i]) throw new SweepPathError(`there is no targets.${which} (the config has ${targets.length})`)
  return [i]
}

function setQuery(target: Doc, name: string, value: SweepValue): void {
  if (Array.isArray(value)) throw new SweepPathError('a query parameter takes a number or a word', 'value')
  let url: URL
  try {
    url = new URL(String(target.url))
  } catch {
    throw new SweepPathError(`targets "${String(target.name)}" has no valid url to set ${name} in`)
  }
  url.searchParams.set(name, String(value))
  target.url = url.toString()
}

/** A target moves to another bundled stack: its URL (if it was the old stack's) and its monitors follow. */
function moveStack(target: Doc, to: string, opts: ExpandOptions): void {
  const stack = target.stack as Doc
  const from = String(stack.name)
  stack.name = to
  const oldUrl = opts.stackUrl?.(from)
  const newUrl = opts.stackUrl?.(to)
  if (oldUrl && newUrl) {
    const url = new URL(String(target.url))
    const old = new URL(oldUrl)
    if (url.host === old.host) {
      const next = new URL(newUrl)
      url.protocol = next.protocol
      url.host = next.host
      target.url = url.toString()
    }
  }
  const monitors = target.monitor
  const list = Array.isArray(monitors) ? monitors : monitors === undefined ? [] : [monitors]
  for (const m of list) if (isObject(m) && m.stack === from) m.stack = to
}

function setField(doc: Doc, keys: string[], value: SweepValue, path: string): void {
  let node: unknown = doc
  for (const key of keys.slice(0, -1)) {
    if (!isObject(node) && !Array.isArray(node)) break
    node = (node as Doc)[key]
  }
  const last = keys.at(-1)!
  if (!isObject(node) || !(last in node))
    throw new SweepPathError(`"${path}" is not a setting in this config`)
  const current = node[last]
  if (kindOf(current) !== kindOf(value) || Array.isArray(value))
    throw new SweepPathError(
      `"${path}" is a ${kindOf(current)} in this config; its values must be ${kindOf(current)}s too`,
    )
  node[last] = value
}

function apply(doc: Doc, path: string, value: SweepValue, opts: ExpandOptions): void {
  if (path === 'targets') {
    if (!Array.isArray(value)) throw new SweepPathError('the values of `targets` are lists of target names')
    const all = doc.targets as Doc[]
    const chosen = value.map((name) => {
      const t = all.find((x) => x.name === name)
      if (!t) throw new SweepPathError(`no target named "${name}"`, 'value')
      return t
    })
    doc.targets = chosen
    // Thresholds of a target that is not in this set have nothing to judge.
    doc.thresholds = (doc.thresholds as Doc[]).filter(
      (t) => t.target === '*' || value.includes(String(t.target)),
    )
    return
  }
  const query = QUERY_PATH.exec(path)
  if (query) {
    for (const i of targetIndices(doc, query[1]!)) setQuery((doc.targets as Doc[])[i]!, query[2]!, value)
    return
  }
  const stack = STACK_PATH.exec(path)
  if (stack) {
    for (const i of targetIndices(doc, stack[1]!)) {
      const target = (doc.targets as Doc[])[i]!
      if (!isObject(target.stack))
        throw new SweepPathError(`targets.${i} runs on no stack (give it stack: { name: … })`)
      const field = stack[2]!
      if (field === 'name') {
        if (typeof value !== 'string') throw new SweepPathError('stack names are words', 'value')
        moveStack(target, value, opts)
      } else if (field === 'replicas') {
        if (typeof value !== 'number') throw new SweepPathError('replicas are numbers', 'value')
        target.stack.replicas = value
      } else {
        if (typeof value !== 'string' && typeof value !== 'number')
          throw new SweepPathError('an environment value is a number or a word', 'value')
        const env = isObject(target.stack.env) ? target.stack.env : {}
        target.stack.env = { ...env, [field.slice(4)]: value }
      }
    }
    return
  }
  const keys = path.split('.')
  if (keys[0] === 'targets' && keys[1] === '*') {
    for (const t of doc.targets as Doc[]) setField(t, keys.slice(2), value, path)
    return
  }
  if (keys.some((k) => k === '*')) throw new SweepPathError('`*` may only stand for a target index')
  setField(doc, keys, value, path)
}

/** A warm-up before the measured window: a warm-up phase for a phases profile, warmupSeconds otherwise. */
function withWarmup(doc: Doc, seconds: number): void {
  const load = doc.load as Doc
  const profile = load.profile as Doc
  if (profile.kind === 'phases') {
    const phases = profile.phases as Doc[]
    if (phases[0]?.warmup === true) return
    profile.phases = [{ name: 'restart warm-up', share: 1, duration: seconds, warmup: true }, ...phases]
    return
  }
  load.warmupSeconds = Math.max(Number(load.warmupSeconds ?? 0), seconds)
}

/** Does the config open with a warm-up already (its own seconds, a phase marked so, or found: auto)? */
export function hasWarmup(config: RunConfig): boolean {
  const p = config.load.profile
  return (
    config.load.warmup === 'auto' ||
    config.load.warmupSeconds > 0 ||
    (p.kind === 'phases' && p.phases.some((ph) => ph.warmup))
  )
}

/** A run's warm-up as a study's restart line states it: seconds, or found in each segment. */
export function warmupText(warmup: number | 'auto'): string {
  return warmup === 'auto' ? 'a warm-up found in each segment (load.warmup: auto)' : `${warmup} s of warm-up`
}

/**
 * The seconds of warm-up a run gets after its stack was just started: none when its config has a
 * warm-up of its own, or says `load.warmupSeconds: 0` itself (the raw input: the parsed config's 0
 * is also the default); DEFAULT_RESTART_WARMUP_SECONDS otherwise.
 */
export function restartWarmupSeconds(config: RunConfig, raw: unknown): number {
  if (hasWarmup(config)) return 0
  const load = typeof raw === 'object' && raw !== null ? (raw as { load?: unknown }).load : undefined
  const said =
    typeof load === 'object' && load !== null
      ? (load as { warmupSeconds?: unknown }).warmupSeconds
      : undefined
  return said === 0 ? 0 : DEFAULT_RESTART_WARMUP_SECONDS
}

/**
 * The config opening with `seconds` of warm-up (a warm-up phase in front of a phases profile):
 * for a run whose stack was just (re)started, so a cold server's first seconds are not measured.
 */
export function warmedUp(config: RunConfig, seconds: number): RunConfig {
  if (hasWarmup(config) || seconds <= 0) return config
  const doc = structuredClone(config) as unknown as Doc
  withWarmup(doc, seconds)
  const parsed = RunConfigV1Schema.safeParse(doc)
  if (!parsed.success) throw configErrorFromZod(parsed.error)
  return parsed.data
}

function stacksOf(config: RunConfig, paths: readonly string[]): StackSetting[] {
  const indices = new Set<number>()
  for (const path of paths) {
    const m = STACK_PATH.exec(path)
    if (!m) continue
    if (m[1] === '*') config.targets.forEach((t, i) => t.stack && indices.add(i))
    else indices.add(Number(m[1]))
  }
  const byName = new Map<string, StackSetting>()
  for (const i of indices) {
    const s = config.targets[i]?.stack
    if (!s) continue
    const setting = {
      name: s.name,
      native: s.native,
      env: s.env,
      replicas: s.replicas,
      port: stackPort(config.targets[i]!.url),
    }
    const other = byName.get(s.name)
    if (other && JSON.stringify(other) !== JSON.stringify(setting))
      throw new ConfigError([
        {
          field: 'sweep.path',
          message: `two targets run on stack ${s.name} with different settings: one stack runs one way at a time`,
        },
      ])
    byName.set(s.name, setting)
  }
  return [...byName.values()]
}

/**
 * One validated config per value (or pair of values), in the order they run: with a grid, the axis
 * that restarts a stack is the outer loop, so a stack restarts once per value of it. Bad input names
 * the field (`sweep.path`, `sweep.values.2`, `sweep.by.values.0`).
 */
export function expandSweep(config: RunConfig, opts: ExpandOptions = {}): SweepStep[] {
  const sweep = config.sweep
  if (!sweep) return [{ index: 0, point: [], labels: [], config, stacks: [] }]
  const axes = sweepAxes(sweep)
  const fields = ['sweep', 'sweep.by']
  // Outer loop first: the axis whose values restart a stack, else `by` (each line of the chart).
  const outer = axes.length === 2 && !(changesStack(axes[0]!.path) && !changesStack(axes[1]!.path)) ? 1 : 0
  const order = axes.length === 2 ? [outer, 1 - outer] : [0]
  const points: SweepValue[][] = []
  const [a, b] = order.map((i) => axes[i]!)
  for (const va of a!.values) {
    if (!b) points.push([va])
    else for (const vb of b.values) points.push(outer === 0 ? [va, vb] : [vb, va])
  }
  const warmup = sweep.warmupSeconds ?? DEFAULT_RESTART_WARMUP_SECONDS
  let previous: StackSetting[] = []
  return points.map((point, index) => {
    const doc = structuredClone(config) as unknown as Doc
    delete doc.sweep
    point.forEach((value, i) => {
      const axis = axes[i]!
      try {
        apply(doc, axis.path, value, opts)
      } catch (err) {
        if (!(err instanceof SweepPathError)) throw err
        const valueIndex = axis.values.findIndex((v) => JSON.stringify(v) === JSON.stringify(value))
        throw new ConfigError([
          {
            field: err.about === 'path' ? `${fields[i]}.path` : `${fields[i]}.values.${valueIndex}`,
            message: err.message,
          },
        ])
      }
    })
    const labels = point.map(valueLabel)
    doc.name = `${config.name} [${point.map((_, i) => `${axes[i]!.name}=${labels[i]}`).join(', ')}]`
    const draft = RunConfigV1Schema.safeParse(doc)
    if (!draft.success) {
      const err = configErrorFromZod(draft.error)
      // A grid's pair: blame the first axis's value if it is invalid on its own, else `by`'s.
      let i = 0
      if (point.length > 1) {
        const alone = structuredClone(config) as unknown as Doc
        delete alone.sweep
        apply(alone, axes[0]!.path, point[0]!, opts)
        if (RunConfigV1Schema.safeParse(alone).success) i = 1
      }
      const valueIndex = axes[i]!.values.findIndex((v) => JSON.stringify(v) === JSON.stringify(point[i]))
      throw new ConfigError(
        err.issues.map((x) => ({
          field: `${fields[i]}.values.${valueIndex}`,
          message: `${labels[i]} makes ${x.field || 'the config'} invalid: ${x.message}`,
        })),
      )
    }
    let stepConfig = draft.data
    const stacks = stacksOf(
      stepConfig,
      axes.map((x) => x.path),
    )
    const changed = stacks.filter((s) => !previous.some((p) => JSON.stringify(p) === JSON.stringify(s)))
    previous = stacks
    if (changed.length > 0) stepConfig = warmedUp(stepConfig, warmup)
    return { index, point, labels, config: stepConfig, stacks: changed }
  })
}

/** Problems of a sweep the schema cannot see, by field (the wizard shows them next to its fields). */
export function sweepIssues(config: RunConfig): { field: string; message: string }[] {
  try {
    expandSweep(config)
    return []
  } catch (err) {
    if (err instanceof ConfigError) return [...err.issues]
    throw err
  }
}
