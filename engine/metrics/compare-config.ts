// What keeps a pair from being like for like, named: differences between the stored configs of the
// two runs (load, profile, window, rate, connection options, the protocol their targets speak),
// their environments (Cannonade version, host, CPU, Node.js), the requests the two targets send,
// the protocol they are sent over (a difference is said, never refused) and their limits, and a
// saturated or unfinished run. Each note is worded per run (or per target), so a caveat that
// applies to several pairs reads the same and is printed once.
import type {
  GeneratorHealth,
  LimitedBy,
  RoundNoise,
  RoundsOutcome,
  StatsBlock,
  SteadyState,
} from '../api/types.ts'
import type { RunConfig, Target } from '../config/schema.ts'
import { generatorBusyWords, protocolName } from './units.ts'

/** The environment row of a run as the store reads it (structurally: engine/store/environment.ts). */
export interface CompareEnvironment {
  host: string
  cpu: string
  cores: number
  os: string
  node: string
  app: string
  details: Record<string, unknown>
}

/** One run as a comparison reads it: the caller loads it from the history. */
export interface RunRounds {
  runId: number
  status: string
  config: RunConfig | null
  environment: CompareEnvironment | null
  generator: GeneratorHealth | null
  /** The study (sweep) this run is one value of. */
  sweep: { studyId: number; path: string; value: number; by: string | null } | null
  /**
   * Per target, in target order, its finished rounds (a repeated disturbed round marked in its
   * noise; with load.warmup: auto, each one's steady state) and what limited it
   * (engine/metrics/limiting.ts), when the caller read it.
   */
  targets: {
    target: string
    rounds: (StatsBlock & {
      round: number
      histogram?: string
      noise?: RoundNoise | null
      steady?: SteadyState
    })[]
    limitedBy?: LimitedBy | null
  }[]
  /** How its rounds ran and ended (absent where the caller has none: synthetic runs). */
  rounds?: RoundsOutcome | null
}

const seconds = (s: number): string => `${s} s`

function windowOf(load: RunConfig['load']): string {
  if (load.duration !== undefined) return seconds(load.duration)
  if (load.requests !== undefined) return `${load.requests} requests`
  return 'set by the profile'
}

function rateOf(load: RunConfig['load']): string {
  return load.rate === null ? 'closed loop' : `${load.rate} req/s`
}

/**
 * How a target is spoken to, field by field: its protocol and its streams per connection. Runs or
 * targets that differ in them are compared like any others; the comparison says they differ.
 */
const SPOKEN: readonly (readonly [string, (t: Target) => string])[] = [
  ['protocol', (t) => protocolName(t.protocol)],
  ['streams per connection', (t) => String(t.streams)],
]

/** The one value every target of a run has (its protocol, say), or null when its targets differ. */
function uniform(c: RunConfig | null, of: (t: Target) => string): string | null {
  const values = new Set(c?.targets.map(of) ?? [])
  return values.size === 1 ? [...values][0]! : null
}

/** [what, a's value, b's value] for every load or environment field that differs. */
function runFieldDiffs(a: RunRounds, b: RunRounds): [string, string, string][] {
  const out: [string, string, string][] = []
  const add = (what: string, x: string, y: string) => {
    if (x !== y) out.push([what, x, y])
  }
  const ca = a.config
  const cb = b.config
  if (ca && cb) {
    const la = ca.load
    const lb = cb.load
    if (la.profile.kind !== lb.profile.kind) add('load profile', la.profile.kind, lb.profile.kind)
    else if (JSON.stringify(la.profile) !== JSON.stringify(lb.profile))
      out.push(['load profile settings', la.profile.kind, lb.profile.kind])
    add('connections', String(la.connections), String(lb.connections))
    add('window', windowOf(la), windowOf(lb))
    add('rate', rateOf(la), rateOf(lb))
    add('keep-alive', la.keepAlive ? 'on' : 'off', lb.keepAlive ? 'on' : 'off')
    add('pipelining', String(la.pipelining), String(lb.pipelining))
    add('timeout', `${la.timeoutMs} ms`, `${lb.timeoutMs} ms`)
    // Said of the runs when each speaks one protocol to all its targets; else of each pair of targets.
    for (const [what, of] of SPOKEN) {
      const x = uniform(ca, of)
      const y = uniform(cb, of)
      if (x !== null && y !== null) add(what, x, y)
    }
  }
  const ea = a.environment
  const eb = b.environment
  if (ea && eb) {
    add('Cannonade version', ea.app, eb.app)
    add('host', ea.host, eb.host)
    add('CPU', `${ea.cpu} × ${ea.cores}`, `${eb.cpu} × ${eb.cores}`)
    add('OS', ea.os, eb.os)
    add('Node.js', ea.node, eb.node)
  }
  return out
}

function list(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('')
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`
}

/** "Runs 1 and 2 differ in connections (64 vs 128) and host (a vs b)", or null when alike. */
export function runDifferences(a: RunRounds, b: RunRounds): string | null {
  if (a.runId === b.runId) return null
  const diffs = runFieldDiffs(a, b)
  if (diffs.length === 0) return null
  const [first, second] = a.runId < b.runId ? [a, b] : [b, a]
  const parts = diffs.map(([what, x, y]) => {
    const [vx, vy] = first === a ? [x, y] : [y, x]
    return what === 'load profile settings' ? `load profile settings (${vx})` : `${what} (${vx} vs ${vy})`
  })
  return `Runs ${first.runId} and ${second.runId} differ in ${list(parts)}.`
}

/** A body in words: its size, and the kind of a generated one. */
function bodyWords(t: Target): string {
  if (t.body === null) return '0 bytes'
  if (typeof t.body === 'object') return `${t.body.size} bytes of generated ${t.body.kind}`
  return `${new TextEncoder().encode(t.body).length} bytes`
}

function limitsOf(run: RunRounds, target: string): string | null {
  const listed = run.environment?.details.targets
  if (!Array.isArray(listed)) return null
  for (const t of listed as unknown[]) {
    if (t && typeof t === 'object' && (t as { name?: unknown }).name === target) {
      const limits = (t as { limits?: unknown }).limits
      return typeof limits === 'string' && limits ? limits : null
    }
  }
  return null
}

/**
 * The two targets are spoken to differently ("protocol (HTTP/1.1 vs h2c)"): within one run, or
 * across runs whose own note (runDifferences) does not say it already.
 */
function spokenDifferences(ra: RunRounds, ta: Target, rb: RunRounds, tb: Target): string[] {
  const out: string[] = []
  for (const [what, of] of SPOKEN) {
    const saidOfRuns =
      ra.runId !== rb.runId && uniform(ra.config, of) !== null && uniform(rb.config, of) !== null
    if (of(ta) !== of(tb) && !saidOfRuns) out.push(`${what} (${of(ta)} vs ${of(tb)})`)
  }
  return out
}

/** The two targets send different requests or ran under different limits. */
export function targetDifferences(
  a: { run: RunRounds; target: string; label: string },
  b: { run: RunRounds; target: string; label: string },
): string | null {
  const ta = a.run.config?.targets.find((t) => t.name === a.target)
  const tb = b.run.config?.targets.find((t) => t.name === b.target)
  const parts: string[] = []
  if (ta && tb) {
    if (ta.method !== tb.method) parts.push(`method (${ta.method} vs ${tb.method})`)
    if (JSON.stringify(ta.body) !== JSON.stringify(tb.body))
      parts.push(`body (${bodyWords(ta)} vs ${bodyWords(tb)})`)
    if (Boolean(ta.steps) !== Boolean(tb.steps))
      parts.push(
        `scenario (${ta.steps ? `${ta.steps.length} steps` : 'none'} vs ${tb.steps ? `${tb.steps.length} steps` : 'none'})`,
      )
    else if (ta.steps && tb.steps && JSON.stringify(ta.steps) !== JSON.stringify(tb.steps))
      parts.push('scenario steps')
    parts.push(...spokenDifferences(a.run, ta, b.run, tb))
  }
  const la = limitsOf(a.run, a.target)
  const lb = limitsOf(b.run, b.target)
  if (la !== lb && (la || lb)) parts.push(`limits (${la ?? 'none recorded'} vs ${lb ?? 'none recorded'})`)
  if (parts.length === 0) return null
  return `${a.label} and ${b.label} differ in ${list(parts)}.`
}

/** A run whose figures are suspect on their own: a saturated generator, or not completed. */
export function runCaveats(run: RunRounds): string[] {
  const out: string[] = []
  const g = run.generator
  if (g?.saturated) {
    out.push(
      `The load generator was saturated in run ${run.runId} (${generatorBusyWords(g)}): its figures measure the generator, not the target.`,
    )
  }
  if (run.rounds?.noise) out.push(`Run ${run.runId}: ${run.rounds.noise}.`)
  if (run.status !== 'done')
    out.push(
      `Run ${run.runId} ${run.status === 'running' ? 'is still running' : `was ${run.status}`}: its figures cover what was measured before it ended.`,
    )
  return out
}
