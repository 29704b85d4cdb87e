// What limited a target, from what was measured while it was measured (its warm-up left out):
// the load generator (saturated, or late on its schedule), the target's CPU at its limit, its
// memory at its limit, its database's connections, or its errors; else nothing found. Gregg's
// "active benchmarking": a figure without its limit is half a result. Pure: the seconds, limits
// and counts are handed in (engine/store/limiting.ts gathers them), so the rule is tested on
// fixtures and against targets whose limit a test sets (engine/runner/limited.load.test.ts).
// LIMIT_RULE says it in words; LIMIT_ORDER is which one is named when several are found: a
// generator at its limit measured itself, so it comes first, and errors last (they follow from
// the others as often as not).
import type { ErrorCounts, LimitFinding, LimitKind, LimitedBy } from '../api/types.ts'
import { errorsText, msText } from './units.ts'

export type { LimitFinding, LimitKind, LimitedBy }

/** A resource at ≥ this share of its limit is at its limit. */
export const AT_LIMIT = 0.9
/** …in at least this share of the measured seconds that read it (CPU, database connections). */
export const MOST_SECONDS = 0.5
/** The generator's load thread above this CPU % in a second is saturated (its health's rule)… */
export const GENERATOR_BUSY = 90
/** …in more than this share of the seconds. */
export const GENERATOR_SECONDS = 0.1
/**
 * Rate mode: the generator fell behind its schedule when this share of the sends due were never
 * sent, or its median send left this late (µs): far past a busy machine's timer jitter (a send a
 * millisecond late limits nothing; one 10 ms late in the middle of the pack is a backlog).
 */
export const UNSENT_SHARE = 0.01
export const LATE_MEDIAN_US = 10_000
/** Failed requests at least this share of those with an outcome. */
export const ERROR_SHARE = 0.01

export const LIMIT_ORDER: readonly Exclude<LimitKind, 'none'>[] = [
  'generator',
  'cpu',
  'memory',
  'db-connections',
  'errors',
]

export const LIMIT_RULE =
  'What limited a target, from its measured seconds (warm-up left out): the load generator when its load thread was above 90 % CPU in more than 10 % of them, or, at a rate, when 1 % of the sends due were never sent or the median send left 10 ms or more after its time; its CPU when it used at least 90 % of its limit (its CPU quota or the CPUs it may run on, as its monitor read them; for a local process or container without one, the host\u2019s cores) in at least half of the seconds with a reading; its memory when it reached 90 % of its memory limit; its database\u2019s connections when, in at least half of the seconds, 90 % of the connections the database accepts were open or 90 % of those open were busy (active); its errors when at least 1 % of its requests failed. Several can apply: the first in that order is named, the others listed. Nothing found otherwise (and what was not monitored is said).'

/** One measured second of a target: its own figures (null: not read that second). */
export interface LimitSecond {
  /** CPU % of its instances together, 100 = one core. */
  cpu: number | null
  memory: number | null
  /** Its database's connections, all states, and those active. */
  dbTotal: number | null
  dbActive: number | null
  /** The load thread's CPU % in that second. */
  generatorCpu: number | null
}

export interface LimitInputs {
  target: string
  seconds: readonly LimitSecond[]
  /** Cores it may use, and whether that is its own limit or the host's cores (none of its own). */
  cpuLimit: { cores: number; own: boolean } | null
  memoryLimit: number | null
  connectionLimit: number | null
  requests: number
  failed: number
  errors: ErrorCounts
  /**
   * Rate mode, summed over its rounds (the median lateness: its latest round's, µs); null in a
   * closed loop.
   */
  schedule: { scheduled: number; sent: number; unsent: number; late: number; latenessP50: number } | null
}

const pct = (x: number): string => `${Math.round(x * 100)} %`
const cores = (n: number): string => `${Number.isInteger(n) ? n : n.toFixed(2)} core${n === 1 ? '' : 's'}`
const mib = (b: number): string => `${Math.round(b / 1048576)} MiB`

function generator(i: LimitInputs): LimitFinding | null {
  const read = i.seconds.filter((s) => s.generatorCpu !== null)
  const busy = read.filter((s) => s.generatorCpu! > GENERATOR_BUSY).length
  if (read.length > 0 && busy / read.length > GENERATOR_SECONDS)
    return {
      kind: 'generator',
      text: `the load generator: above ${GENERATOR_BUSY} % CPU in ${busy} of ${read.length} seconds (saturated: the figures measure it, not the target)`,
    }
  const s = i.schedule
  if (!s || s.sent + s.unsent === 0) return null
  const unsent = s.scheduled > 0 ? s.unsent / s.scheduled : 0
  if (unsent < UNSENT_SHARE && s.latenessP50 < LATE_MEDIAN_US) return null
  const late = s.sent > 0 ? s.late / s.sent : 0
  return {
    kind: 'generator',
    text: `the load generator's schedule: ${s.unsent > 0 ? `${s.unsent.toLocaleString('en-US')} sends (${pct(unsent)}) never sent, ` : ''}the median send ${msText(s.latenessP50)} ms late, ${pct(late)} more than 1 ms (every connection it may use was busy, or it fell behind)`,
  }
}

/** The share of the seconds with a value in which `at` holds, and how many had one. */
function share<T>(values: readonly (T | null)[], at: (v: T) => boolean): { n: number; of: number } {
  const known = values.filter((v): v is T => v !== null)
  return { n: known.filter(at).length, of: known.length }
}

function cpu(i: LimitInputs): LimitFinding | null {
  if (!i.cpuLimit) return null
  const capacity = i.cpuLimit.cores * 100
  const s = share(
    i.seconds.map((x) => x.cpu),
    (v) => v >= AT_LIMIT * capacity,
  )
  if (s.of === 0 || s.n / s.of < MOST_SECONDS) return null
  const mean = i.seconds.reduce((a, x) => a + (x.cpu ?? 0), 0) / s.of
  const limit = i.cpuLimit.own
    ? `its limit of ${cores(i.cpuLimit.cores)}`
    : `the host's ${cores(i.cpuLimit.cores)}`
  return {
    kind: 'cpu',
    text: `its CPU: ${pct(mean / capacity)} of ${limit} on average, at least ${pct(AT_LIMIT)} in ${s.n} of ${s.of} seconds`,
  }
}

function memory(i: LimitInputs): LimitFinding | null {
  const peak = Math.max(0, ...i.seconds.map((x) => x.memory ?? 0))
  if (i.memoryLimit === null || peak < AT_LIMIT * i.memoryLimit) return null
  return { kind: 'memory', text: `its memory: ${mib(peak)} of its ${mib(i.memoryLimit)} limit at its peak` }
}

function database(i: LimitInputs): LimitFinding | null {
  const max = i.connectionLimit
  const full = share(
    i.seconds.map((x) => (x.dbTotal === null ? null : x)),
    (x) => max !== null && x.dbTotal! >= AT_LIMIT * max,
  )
  const busy = share(
    i.seconds.map((x) => (x.dbTotal === null || x.dbActive === null ? null : x)),
    (x) => x.dbTotal! >= 1 && x.dbActive! >= AT_LIMIT * x.dbTotal!,
  )
  if (full.of > 0 && full.n / full.of >= MOST_SECONDS)
    return {
      kind: 'db-connections',
      text: `its database's connections: at least ${pct(AT_LIMIT)} of the ${max} it accepts open in ${full.n} of ${full.of} seconds`,
    }
  if (busy.of > 0 && busy.n / busy.of >= MOST_SECONDS) {
    const held = Math.max(...i.seconds.map((x) => x.dbTotal ?? 0))
    return {
      kind: 'db-connections',
      text: `its database's connections: every one it held busy (up to ${held} open, ${pct(AT_LIMIT)} or more active) in ${busy.n} of ${busy.of} seconds`,
    }
  }
  return null
}

function errors(i: LimitInputs): LimitFinding | null {
  if (i.requests === 0 || i.failed / i.requests < ERROR_SHARE) return null
  return {
    kind: 'errors',
    text: `its errors: ${pct(i.failed / i.requests)} of requests failed (${errorsText(i.errors, (n) => n.toLocaleString('en-US'))})`,
  }
}

/** What could not be looked at, for "nothing found". */
function unknowns(i: LimitInputs): string[] {
  const out: string[] = []
  if (!i.seconds.some((s) => s.cpu !== null)) out.push('its CPU (no monitor read it)')
  else if (!i.cpuLimit) out.push('its CPU limit (its monitor knows none)')
  if (!i.seconds.some((s) => s.memory !== null)) out.push('its memory (no monitor read it)')
  else if (i.memoryLimit === null) out.push('its memory limit (none known)')
  return out
}

/** What limited one target (LIMIT_RULE). */
export function limitedBy(i: LimitInputs): LimitedBy {
  const found = [generator(i), cpu(i), memory(i), database(i), errors(i)].filter(
    (f): f is LimitFinding => f !== null,
  )
  found.sort((a, b) => LIMIT_ORDER.indexOf(a.kind) - LIMIT_ORDER.indexOf(b.kind))
  const unknown = unknowns(i)
  const first = found[0]
  return {
    target: i.target,
    kind: first?.kind ?? 'none',
    text: first
      ? `limited by ${first.text}`
      : `nothing found at its limit${unknown.length ? `; not known: ${unknown.join(', ')}` : ''}`,
    found,
    unknown,
  }
}

/** The words every screen shows for a kind (a column, a badge). */
export const LIMIT_NAMES: Record<LimitKind, string> = {
  generator: 'the load generator',
  cpu: 'CPU',
  memory: 'memory',
  'db-connections': 'database connections',
  errors: 'errors',
  none: 'nothing found',
}
