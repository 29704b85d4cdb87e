// The open-loop send schedule of one segment (rate mode): one timeline for the whole window, so
// a profile's steps change how many connections may be used, never when requests are due.
// Slot k is due `k / rate` seconds into the profile's active time; steps with no connections (a
// burst's idle time, a stepped ramp's pause) are idle and hold no slots. A request-bound step
// holds exactly its count of slots (it lasts count / rate seconds). Split over N load agents, the
// schedule stays the whole run's and agent i takes slots i, i + N, … of it.
import type { Step } from '../config/compile.ts'

interface Stretch {
  /** First slot (in slot units, may be fractional) and the end of this stretch's slots. */
  from: number
  to: number
  /** Start of the stretch, ms from the segment's start. */
  startMs: number
  phase: number
}

/** Slot units are rounded to this, so 0.1 s × 500 req/s is 50 slots, not 50.000000000000007. */
const UNIT = 1e6
const round = (x: number) => Math.round(x * UNIT) / UNIT

/** Steps with their nominal length at `rate`: a request-bound step lasts its count / rate seconds. */
export function timedSteps(steps: readonly Step[], rate: number): Step[] {
  return steps.map((s) => ({
    ...s,
    seconds: s.seconds ?? (s.requests !== null ? s.requests / rate : null),
    requests: null,
  }))
}

export class Pacer {
  /** Slots in the window: rate × active seconds, or the run's request count. */
  readonly total: number
  /** The next slot to send (this agent's). */
  next: number
  /** Slots this process sent. */
  sent = 0
  private readonly share: { index: number; count: number }
  private readonly intervalMs: number
  private readonly stretches: Stretch[] = []
  private current = 0

  /** `steps` as compiled (request-bound steps included), `maxRequests` the run's request cap. */
  constructor(
    steps: readonly Step[],
    rate: number,
    maxRequests: number | null,
    share: { index: number; count: number } = { index: 0, count: 1 },
  ) {
    this.share = share
    this.next = share.index
    this.intervalMs = 1000 / rate
    let units = 0
    let ms = 0
    for (const s of steps) {
      const seconds = s.seconds ?? (s.requests !== null ? s.requests / rate : Infinity)
      const slots = s.requests !== null ? s.requests : round(seconds * rate)
      if (s.connections > 0 && slots > 0) {
        this.stretches.push({ from: units, to: units + slots, startMs: ms, phase: s.phase })
        units = round(units + slots)
      }
      ms += seconds * 1000
    }
    // k is a slot while k < units: ceil counts the slot that starts in a step's last fraction.
    const slots = Math.ceil(units)
    this.total = maxRequests === null ? slots : Math.min(maxRequests, slots)
    this.seek()
  }

  /** When slot `next` is due, ms from the segment's start. */
  at(): number {
    const s = this.stretches[this.current]
    return s ? s.startMs + (this.next - s.from) * this.intervalMs : Infinity
  }

  /** The phase of slot `next` (a request keeps the phase of its intended time). */
  phase(): number {
    return this.stretches[this.current]?.phase ?? 0
  }

  advance(): void {
    this.next += this.share.count
    this.sent++
    this.seek()
  }

  /** This process's slots due by `ms` from the segment's start: its share of dueBy(ms). */
  ownDueBy(ms: number): number {
    const { index, count } = this.share
    return Math.max(0, Math.ceil((this.dueBy(ms) - index) / count))
  }

  /** Slots due by `ms` from the segment's start (at most `total`). */
  dueBy(ms: number): number {
    let due = 0
    for (const s of this.stretches) {
      if (ms <= s.startMs) break
      const first = Math.ceil(s.from)
      const inStretch = Math.ceil(round(Math.min(s.to, s.from + (ms - s.startMs) / this.intervalMs))) - first
      due = first + Math.max(0, inStretch)
    }
    return Math.min(this.total, due)
  }

  private seek(): void {
    while (this.current < this.stretches.length && this.next >= this.stretches[this.current]!.to)
      this.current++
  }
}
