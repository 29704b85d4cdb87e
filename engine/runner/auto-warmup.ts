// load.warmup: auto on the writer thread (writer.ts): a segment's seconds are held apart while
// they may still turn out to be its warm-up, and when it ends the steady-state rule
// (metrics/steady.ts) says where its measured window starts. The cut is at most half the segment,
// so only its first half is held: each second's requests as encoded statistics (a few kB, not a
// live histogram each), its scenario steps, and the ids of the ledger blocks written in it (each
// block is one batch, and a batch never spans two seconds: the load thread flushes at each tick).
// Seconds past the hold go straight into the segment's figures, as without auto. At the end the
// held seconds before the cut become the warm-up phase and the rest join the measured window, so
// the summary, its histograms, per-phase and per-step figures all count the same requests; the
// writer then moves the warm-up's series rows and blocks to the warm-up phase (ledger-writer.ts).
import type { SeriesPoint, SteadyState } from '../api/types.ts'
import { StatsAccumulator } from '../metrics/accumulate.ts'
import { addStats, encodeStats, sumStats, type EncodedStats } from '../metrics/encoded.ts'
import { steadyCut } from '../metrics/steady.ts'

interface HeldSecond {
  t: number
  /** Its requests and errors (every kind but in flight), for the live totals. */
  requests: number
  errors: number
  stats: EncodedStats
  steps: (EncodedStats | null)[]
  blocks: number[]
}

export interface AutoCut {
  steady: SteadyState
  /** The held seconds before the cut, and those after it (the caller destroys both). */
  warmup: StatsAccumulator
  measured: StatsAccumulator
  /** Per scenario step, the held seconds after the cut (the caller destroys them). */
  steps: (StatsAccumulator | null)[]
  /** Ledger blocks of the warm-up's seconds, and the measured window's first second (series t). */
  blocks: number[]
  from: number
}

export class AutoWarmup {
  /** Per closed second: throughput (responses) and p50, what the rule reads. */
  private readonly responses: number[] = []
  private readonly p50: (number | null)[] = []
  private readonly ts: number[] = []
  private readonly held: HeldSecond[] = []
  /** How many seconds are held: the cut's limit (null: all, a request-bound segment's length is unknown). */
  private readonly limit: number
  /** The second being filled: its blocks and steps, while it is held. */
  private blocks: number[] = []
  private steps: (StatsAccumulator | undefined)[] = []

  constructor(limit: number | null) {
    this.limit = limit ?? Infinity
  }

  /** Is the second being filled held (its requests kept apart, out of the phases)? */
  get holding(): boolean {
    return this.held.length < this.limit
  }

  /** Requests and errors of the held seconds, for the live totals (they are in no phase yet). */
  totals(): { requests: number; errors: number } {
    let requests = 0
    let errors = 0
    for (const h of this.held) {
      requests += h.requests
      errors += h.errors
    }
    return { requests, errors }
  }

  /** A block written in the second being filled (held seconds only). */
  block(id: number): void {
    this.blocks.push(id)
  }

  /** The accumulator of scenario step `step` in the second being filled (held seconds only). */
  step(step: number): StatsAccumulator {
    return (this.steps[step] ??= new StatsAccumulator())
  }

  /** A second closed (`acc`: its requests): what the rule reads, and, if held, its requests. */
  second(point: SeriesPoint, acc: StatsAccumulator): void {
    this.responses.push(point.responses)
    this.p50.push(point.p50)
    this.ts.push(point.t)
    if (!this.holding) return
    this.held.push({
      t: point.t,
      requests: acc.requests,
      errors: acc.errorTotal(),
      stats: encodeStats(acc),
      steps: this.takeSteps(),
      blocks: this.blocks,
    })
    this.blocks = []
  }

  /**
   * The window's last few ms were folded into the second before (`acc`: that second with them).
   * If they were held too, the held second is that whole; if not, they are in the figures already.
   */
  revise(point: SeriesPoint, acc: StatsAccumulator, sliceHeld: boolean): void {
    const last = this.responses.length - 1
    if (last < 0) return
    this.responses[last] = point.responses
    this.p50[last] = point.p50
    const entry = this.held.at(-1)
    if (!sliceHeld || !entry || entry.t !== point.t) return
    entry.stats = encodeStats(acc)
    entry.requests = acc.requests
    entry.errors = acc.errorTotal()
    entry.steps = this.takeSteps(entry.steps)
    entry.blocks.push(...this.blocks)
    this.blocks = []
  }

  /** The steps of the second being filled, encoded (added to `into`'s when it has some), and reset. */
  private takeSteps(into: (EncodedStats | null)[] = []): (EncodedStats | null)[] {
    const out: (EncodedStats | null)[] = []
    const n = Math.max(into.length, this.steps.length)
    for (let i = 0; i < n; i++) {
      const acc = this.steps[i]
      const had = into[i] ?? null
      if (!acc) out.push(had)
      else {
        if (had) addStats(acc, had, `step ${i}`)
        out.push(encodeStats(acc))
        acc.destroy()
      }
    }
    this.steps = []
    return out
  }

  /** The segment ended: where its measured window starts, and its held seconds on each side. */
  finish(): AutoCut {
    const rule = steadyCut(this.responses, this.p50)
    const cut = Math.min(rule.cut, this.held.length)
    const sum = (from: number, to: number) =>
      sumStats(this.held.slice(from, to).map((h) => ({ stats: h.stats, who: `second ${h.t}` })))
    const stepCount = Math.max(0, ...this.held.map((h) => h.steps.length))
    const steps = Array.from({ length: stepCount }, (_, i) => {
      const after = this.held
        .slice(cut)
        .flatMap((h) => (h.steps[i] ? [{ stats: h.steps[i], who: `step ${i}` }] : []))
      return after.length ? sumStats(after) : null
    })
    const first = this.ts[0] ?? 0
    return {
      steady: {
        warmupSeconds: cut,
        from: this.ts[cut] ?? first + cut,
        limit: rule.cap,
        settled: rule.settled,
        why: rule.why,
        change: { throughput: rule.window.throughput.change, p50: rule.window.p50.change },
      },
      warmup: sum(0, cut),
      measured: sum(cut, this.held.length),
      steps,
      blocks: this.held.slice(0, cut).flatMap((h) => h.blocks),
      from: this.ts[cut] ?? first + cut,
    }
  }

  destroy(): void {
    for (const s of this.steps) s?.destroy()
    this.steps = []
  }
}

/**
 * A segment's phases and steps (the writer's accumulators, changed in place) once its cut is
 * known: the held seconds before it are the warm-up phase (its first phase marked so), those after
 * it join the measured phase and the steps; the phases' seconds move the same whole seconds.
 */
export function applyCut(
  auto: AutoWarmup,
  st: { phases: (StatsAccumulator | undefined)[]; steps: (StatsAccumulator | undefined)[] },
  phaseSeconds: readonly number[],
  warmupPhases: readonly boolean[],
): { steady: SteadyState; blocks: number[]; from: number; phaseSeconds: number[] } {
  const warm = warmupPhases.indexOf(true)
  const main = warmupPhases.indexOf(false)
  const cut = auto.finish()
  ;(st.phases[main] ??= new StatsAccumulator()).addAll(cut.measured)
  cut.measured.destroy()
  if (cut.warmup.requests > 0 || cut.warmup.latency.totalCount > 0) {
    st.phases[warm]?.destroy()
    st.phases[warm] = cut.warmup
  } else cut.warmup.destroy()
  cut.steps.forEach((acc, i) => {
    if (!acc) return
    ;(st.steps[i] ??= new StatsAccumulator()).addAll(acc)
    acc.destroy()
  })
  const seconds = [...phaseSeconds]
  const w = cut.steady.warmupSeconds
  seconds[warm] = (seconds[warm] ?? 0) + w
  seconds[main] = Math.max(0, (seconds[main] ?? 0) - w)
  return { steady: cut.steady, blocks: cut.blocks, from: cut.from, phaseSeconds: seconds }
}
