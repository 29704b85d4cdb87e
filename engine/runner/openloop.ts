// The rate-mode sender of one segment: it sends each slot of the schedule (pacer.ts) on a free
// connection once the slot's time has come, never before. Node's timers can fire up to ~1 ms
// early against performance.now(), so a timer that fires early is armed again. A slot whose time
// came while every connection was busy waits (backlog) and goes as soon as one is free, with its
// corrected latency counted from the slot; with load.maxConnections the driver may open more
// connections instead, so the arrival rate holds while the server stalls.
import type { LoadConnection as Connection } from './load-connection.ts'
import { Pacer } from './pacer.ts'
import type { Step } from '../config/compile.ts'

export interface OpenLoopHost {
  /** performance.now() of the segment's start: slot times count from it. */
  readonly startAt: number
  /** Is the window open? */
  isRunning(): boolean
  /** Connections with an index below this may send. */
  limit(): number
  connectionCount(): number
  /** Open connection number `connectionCount()`; it offers itself when it may send. */
  addConnection(): void
  transmit(conn: Connection, now: number, intended: number, phase: number): void
  /** Every slot of a request-bound schedule has been sent. */
  allSent(): void
}

export interface ScheduleCounts {
  scheduled: number
  sent: number
  unsent: number
  peakConnections: number
}

export class OpenLoop {
  private readonly host: OpenLoopHost
  private readonly pacer: Pacer
  /** The schedule ends once its last slot is sent (a request count), not when its window closes. */
  private readonly requestBound: boolean
  private readonly free: Connection[] = []
  private pacing = false
  private closing = false
  private timer: NodeJS.Timeout | null = null
  private timerAt = 0
  private busy = 0
  private peakBusy = 0
  /** Most connections busy within the current second (the series' connection count). */
  secondPeak = 0

  /**
   * `share`: this process's part of a run split over load agents (config/split.ts). The schedule
   * is the whole run's; agent i of N sends its slots i, i + N, … so the agents together send it.
   */
  constructor(
    host: OpenLoopHost,
    steps: readonly Step[],
    rate: number,
    maxRequests: number | null,
    share: { index: number; count: number } = { index: 0, count: 1 },
  ) {
    this.host = host
    this.pacer = new Pacer(steps, rate, maxRequests, share)
    this.requestBound = maxRequests !== null || (steps.at(-1)?.requests ?? null) !== null
  }

  /**
   * The profile's last step ended: true while the window must stay open. A request-bound schedule
   * stays until its last request is sent. A time-bound one whose due requests wait for a
   * connection stays for one I/O phase, then `close` is called: answers that came in by the
   * window's end may not be read yet (timers run before I/O in an event loop turn), and the
   * connections they free take what is due.
   */
  holdWindow(close: () => void): boolean {
    this.pace()
    if (this.pacer.next >= this.pacer.total) return false
    if (this.requestBound) return true
    if (this.closing) return false
    this.closing = true
    setImmediate(close)
    return true
  }

  /** A connection may send: it takes the next due slot at once, or waits on the free list. */
  offer(conn: Connection): void {
    if (conn.inFlight >= conn.pipelining || conn.queued) return
    conn.queued = true
    this.free.push(conn)
    if (!this.pacing) this.pace()
  }

  /** A request sent by this loop ended (response or failure). */
  done(): void {
    this.busy--
  }

  /** Send every slot whose time has come, while there is a connection for it. */
  pace(): void {
    if (this.pacing) return
    this.pacing = true
    const p = this.pacer
    const start = this.host.startAt
    try {
      while (this.host.isRunning() && p.next < p.total) {
        const at = start + p.at()
        const now = performance.now()
        if (at > now) {
          this.arm(at, now)
          break
        }
        const conn = this.take()
        if (!conn) break // backlog: a connection that frees up calls offer()
        this.host.transmit(conn, now, at, p.phase())
        p.advance()
        // An HTTP/2 connection with streams to spare stays on the free list.
        if (conn.inFlight < conn.pipelining) {
          conn.queued = true
          this.free.push(conn)
        }
        if (++this.busy > this.secondPeak) {
          this.secondPeak = this.busy
          if (this.busy > this.peakBusy) this.peakBusy = this.busy
        }
      }
    } finally {
      this.pacing = false
    }
    if (this.requestBound && p.next >= p.total && this.host.isRunning()) this.host.allSent()
  }

  /** The next second starts with the connections busy now. */
  nextSecond(): void {
    this.secondPeak = this.busy
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  /** What the schedule asked for by `endAt` (performance.now()) and what was sent. */
  counts(endAt: number): ScheduleCounts {
    const sent = this.pacer.sent
    const scheduled = Math.max(sent, this.pacer.ownDueBy(endAt - this.host.startAt))
    return { scheduled, sent, unsent: scheduled - sent, peakConnections: this.peakBusy }
  }

  private take(): Connection | null {
    for (;;) {
      const conn = this.free.pop()
      if (conn) {
        conn.queued = false
        // Busy, closed or between sockets since it was offered: it offers itself again when it may send.
        if (conn.inFlight >= conn.pipelining || conn.closed || !conn.writable) continue
        if (conn.index >= this.host.limit()) {
          conn.parked = true // the step's count fell below it: the driver unparks it when it rises
          continue
        }
        return conn
      }
      if (this.host.connectionCount() >= this.host.limit()) return null
      const before = this.free.length
      this.host.addConnection()
      if (this.free.length === before) return null
    }
  }

  private arm(at: number, now: number): void {
    if (this.timer) {
      if (this.timerAt === at) return
      clearTimeout(this.timer)
    }
    this.timerAt = at
    this.timer = setTimeout(this.onTimer, Math.max(1, at - now))
  }

  private readonly onTimer = (): void => {
    this.timer = null
    this.pace()
  }
}
