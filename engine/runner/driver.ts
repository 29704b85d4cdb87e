// Executes one segment (one target, one round) of a run: steps of the compiled plan, the
// connection count each step asks for, per-second ticks, and the end of the window. One timer
// drives ticks and time-bound steps so that a second is always closed with the connection count
// it had before the next step begins. In rate mode the sends follow one schedule for the whole
// window (openloop.ts); a step's connection count is then the concurrency it allows (raised to
// load.maxConnections when every connection is busy), and a request-bound step lasts count / rate.
// What a segment is given and gives back, and how its connections are made: segment.ts.
import type { Step } from '../config/compile.ts'
import { ERR_INFLIGHT } from '../metrics/accumulate.ts'
import type { ConnectionHost, LoadConnection as Connection, ReadyTimes } from './load-connection.ts'
import { cpuPercentMeter } from './cpu.ts'
import { OpenLoop } from './openloop.ts'
import { timedSteps } from './pacer.ts'
import {
  connectionMaker,
  serverTimingInvalidByPhase,
  SkipTally,
  type SegmentOptions,
  type SegmentResult,
} from './segment.ts'

export class SegmentDriver implements ConnectionHost {
  private readonly o: SegmentOptions
  private readonly newConnection: ReturnType<typeof connectionMaker>
  private readonly conns: Connection[] = []
  private readonly steps: Step[]
  private readonly open: OpenLoop | null
  private readonly cpu = cpuPercentMeter()
  private running = false
  private draining = false
  /** Connections with a lower index may send. */
  private active = 0
  /** The step's connection count, and the largest one in the current second. */
  private stepConnections = 0
  private secondMaxActive = 0
  private phase = 0
  private stepIndex = -1
  private step: Step | null = null
  private stepSent = 0
  /** Closed loop: responses (or failures) to requests of the current request-bound step. */
  private stepAnswered = 0
  /** A request-bound step sent its count: nothing more until its last response is in. */
  private stepHolding = false
  private stepStartAt = 0
  private stepActualStart = 0
  private nextStepAt = Infinity
  /** When the profile's time ran out (not when the late timer saw it): the window's true end. */
  private windowEndAt: number | null = null
  private nextTickAt = 0
  private tickIndex = 0
  startAt = 0
  private sent = 0
  /** Requests sent outside warm-up phases: what load.requests counts. */
  private measured = 0
  private timer: NodeJS.Timeout | null = null
  private sweeper: NodeJS.Timeout | null = null
  private stopped = false
  private readonly phaseSeconds: number[]
  private readonly skips: SkipTally
  private resolveDone: ((r: SegmentResult) => void) | null = null
  private lowestStreamLimit: number | null = null

  constructor(o: SegmentOptions) {
    this.o = o
    const rate = o.load.rate
    this.steps = rate ? timedSteps(o.plan.steps, rate) : o.plan.steps
    this.open = rate ? new OpenLoop(this, o.plan.steps, rate, o.plan.maxRequests, o.share) : null
    this.phaseSeconds = o.plan.phases.map(() => 0)
    this.skips = new SkipTally(o.target.steps?.length ?? 0)
    this.newConnection = connectionMaker(o)
  }

  run(): Promise<SegmentResult> {
    return new Promise((resolve) => {
      this.resolveDone = resolve
      this.running = true
      this.startAt = Math.min(this.o.startAt ?? Infinity, performance.now())
      this.stepStartAt = this.startAt
      this.nextTickAt = this.startAt + 1000
      this.cpu.start(this.startAt)
      const sweepEvery = Math.min(250, Math.max(10, this.o.load.timeoutMs / 10))
      this.sweeper = setInterval(() => this.sweepTimeouts(), sweepEvery)
      this.advanceStep(this.startAt)
      this.schedule()
    })
  }

  /** Graceful stop: end the window now; what was measured is kept. */
  stop(): void {
    if (!this.running && !this.draining) return
    this.stopped = true
    this.finishWindow()
  }

  // ---- ConnectionHost: called per request -------------------------------------------------

  pump(conn: Connection): void {
    if (!this.running || conn.closed) return
    if (conn.needsReconnect) {
      conn.reconnect()
      return
    }
    if (conn.index >= this.active) {
      conn.parked = true
      return
    }
    // Nothing is written on a socket still opening: it pumps itself once connected.
    if (!conn.ready) return
    // Think time: the connection asks again when its pause is over (never in rate mode: the schema).
    if (conn.thinkUntil > 0 && conn.thinking()) return
    if (this.open) this.open.offer(conn)
    else this.fill(conn)
  }

  connected(_conn: Connection, us: number, _times: ReadyTimes): void {
    if (this.running || this.draining) this.o.ledger.connect(us)
  }

  /** HTTP/2: the lowest concurrent-stream limit a server set on this segment's connections. */
  streamLimit(_conn: Connection, limit: number): void {
    if (this.lowestStreamLimit === null || limit < this.lowestStreamLimit) this.lowestStreamLimit = limit
  }

  response(conn: Connection, slot: number, status: number, bytes: number, now: number, kind: number): void {
    const intended = conn.intendedAt[slot]!
    const corrected = intended >= 0 ? (now - intended) * 1000 : -1
    if (!this.o.load.keepAlive) conn.needsReconnect = true
    this.record(conn, slot, (now - conn.sentAt[slot]!) * 1000, corrected, status, bytes, kind)
  }

  failed(conn: Connection, slot: number, kind: number): void {
    this.record(conn, slot, -1, -1, 0, 0, kind)
  }

  /** A request ended (answered or failed): its ledger row, and what its end means for the step. */
  private record(
    conn: Connection,
    slot: number,
    latencyUs: number,
    correctedUs: number,
    status: number,
    bytes: number,
    kind: number,
  ): void {
    const sentAt = conn.sentAt[slot]!
    const intended = conn.intendedAt[slot]!
    if (intended >= 0) this.sentLate(sentAt, intended)
    const answered = latencyUs >= 0
    this.o.ledger.push(
      conn.seq[slot]!,
      (sentAt - this.o.t0) * 1000,
      latencyUs,
      correctedUs,
      status,
      bytes,
      kind,
      conn.phase[slot]!,
      answered ? conn.appUs : -1,
      answered ? conn.dbUs : -1,
      conn.step[slot]!,
    )
    this.answered(this.step, conn.phase[slot]!)
    if (this.draining && !this.running) this.checkDrained()
  }

  connectFailed(conn: Connection, kind: number): void {
    // Closed loop: the request the connection was opened for fails with it (a refused port, a TLS
    // failure, a connect that timed out), counted as sent as before. Rate mode keeps it due: the
    // schedule sends it on a connection that opens, or counts it never sent.
    if (!this.running || this.open || this.stepHolding || conn.index >= this.active) return
    const max = this.o.plan.maxRequests
    if (max !== null && this.measured >= max) return
    // Put on the connection unwritten; the connection fails it with `kind` next.
    this.transmit(conn, performance.now(), -1, this.phase, false)
    void kind
  }

  stepFailed(step: number, phase: number): void {
    // Like the steps' own figures, skips leave warm-up phases out.
    if (!this.o.plan.warmup[phase]) this.skips.failed(step)
  }

  nextIteration(): number {
    const n = this.o.iterations.next
    this.o.iterations.next += this.o.iterations.stride
    return n
  }

  /** A rate-mode request ended: how late it left (it never leaves early) goes to the ledger. */
  private sentLate(sentAt: number, intended: number): void {
    this.open!.done()
    this.o.ledger.lag((sentAt - intended) * 1000)
  }

  // ---- OpenLoopHost -------------------------------------------------------------------------

  isRunning = (): boolean => this.running
  limit = (): number => this.active
  connectionCount = (): number => this.conns.length

  addConnection(): void {
    const conn = this.newConnection(this.conns.length, this)
    this.conns.push(conn)
    this.pump(conn)
  }

  allSent(): void {
    this.beginDrain()
  }

  // ---- sending ------------------------------------------------------------------------------

  /** Closed loop: a connection sends again as soon as it may. */
  private fill(conn: Connection): void {
    const max = this.o.plan.maxRequests
    while (
      this.running &&
      !this.stepHolding &&
      conn.inFlight < conn.pipelining &&
      conn.index < this.active &&
      !conn.closed
    ) {
      if (max !== null && this.measured >= max) {
        this.beginDrain()
        return
      }
      this.transmit(conn, performance.now(), -1, this.phase)
    }
  }

  transmit(conn: Connection, now: number, intended: number, phase: number, write = true): void {
    conn.send(this.o.counter.next, now, intended, phase, write)
    this.o.counter.next += this.o.counter.stride
    this.sent++
    if (!this.o.plan.warmup[phase]) this.measured++
    this.stepSent++
    const step = this.step
    if (step && step.requests !== null && this.stepSent >= step.requests) {
      if (this.open) {
        // Open loop: the schedule goes on; the next step starts when this one's last request is sent.
        queueMicrotask(() => this.endRequestStep(step))
      } else {
        // Closed loop: a phase of N requests ends when its N-th answer is in (every response is
        // the phase's, and its wall time is until the last one), then the next phase starts.
        this.stepHolding = true
        this.answered(step, -1)
      }
    }
  }

  /** A request of `phase` was answered or failed: the end of a held request-bound step? */
  private answered(step: Step | null, phase: number): void {
    if (!step || step !== this.step || step.requests === null || this.open) return
    if (phase === step.phase) this.stepAnswered++
    if (this.stepHolding && this.stepAnswered >= this.stepSent)
      queueMicrotask(() => this.endRequestStep(step))
  }

  private endRequestStep(step: Step): void {
    if (!this.running || this.step !== step) return
    const held = this.stepHolding
    this.advanceStep(performance.now())
    this.schedule()
    // Connections that waited out the held step (idle, not parked) start the next one.
    if (held) for (const c of this.conns) if (!c.closed && !c.parked && c.inFlight === 0) this.pump(c)
  }

  /** The step's count; in rate mode up to load.maxConnections may be used when all are busy. */
  private setActive(n: number): void {
    this.active = this.open && n > 0 ? Math.max(n, this.o.load.maxConnections ?? 0) : n
    this.stepConnections = n
    if (n > this.secondMaxActive) this.secondMaxActive = n
    while (this.conns.length < n) this.addConnection()
    for (const c of this.conns) {
      if (c.parked && c.index < this.active) {
        c.parked = false
        this.pump(c)
      }
    }
  }

  // ---- time ---------------------------------------------------------------------------------

  private advanceStep(at: number): void {
    const last = this.open && this.step && this.stepIndex === this.steps.length - 1
    if (last && this.open.holdWindow(() => this.running && this.advanceStep(at))) {
      this.nextStepAt = Infinity
      return
    }
    // The hold's pace sent the last slot of a request-bound schedule and began the drain: what it
    // sent is answered, never cut off as in flight by a window end (a slot of the step before,
    // sent late, had made this step's count reach its end one slot early).
    if (last && this.draining) return
    this.stepTimeUntil(at)
    this.stepIndex++
    const step = this.steps[this.stepIndex]
    if (!step) {
      this.step = null
      if (this.o.plan.maxRequests !== null) this.beginDrain()
      else {
        this.windowEndAt = at
        this.finishWindow()
      }
      return
    }
    this.step = step
    this.stepSent = 0
    this.stepAnswered = 0
    this.stepHolding = false
    this.stepStartAt = at
    this.stepActualStart = performance.now()
    this.phase = step.phase
    this.nextStepAt = step.seconds === null ? Infinity : at + step.seconds * 1000
    this.setActive(step.connections)
    // More connections may be allowed now: the backlog goes out on them.
    this.open?.pace()
  }

  /** The current step's time until `at` goes to its phase's seconds. */
  private stepTimeUntil(at: number): void {
    const step = this.step
    if (step)
      this.phaseSeconds[step.phase] =
        (this.phaseSeconds[step.phase] ?? 0) + (at - this.stepActualStart) / 1000
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (!this.running && !this.draining) return
    const next = Math.min(this.nextTickAt, this.nextStepAt)
    this.timer = setTimeout(() => this.onTimer(), Math.max(0, next - performance.now()))
  }

  private onTimer(): void {
    const now = performance.now()
    // Close the second first, then change the connection count: the second keeps its own count.
    while (this.nextTickAt <= now + 0.5) {
      this.tick()
      this.nextTickAt += 1000
    }
    if (this.running && this.nextStepAt <= now + 0.5) this.advanceStep(this.nextStepAt)
    this.schedule()
  }

  private tick(merge = false): void {
    this.o.ledger.flush()
    const generator = this.cpu.read()
    this.o.onTick({
      t: this.o.startSecond + this.tickIndex,
      phase: this.phase,
      // Rate mode: more connections than the step's count are busy when the server falls behind.
      connections: this.open ? Math.max(this.secondMaxActive, this.open.secondPeak) : this.secondMaxActive,
      generatorCpu: generator.cpu,
      generatorWait: generator.wait,
      ...(merge ? { merge } : {}),
    })
    this.tickIndex++
    this.secondMaxActive = this.stepConnections
    this.open?.nextSecond()
  }

  private sweepTimeouts(): void {
    const now = performance.now()
    for (const conn of this.conns) conn.expire(now, this.o.load.timeoutMs, this.running)
    if (this.draining && !this.running) this.checkDrained()
  }

  // ---- ending -------------------------------------------------------------------------------

  /** Request-bound end: send nothing more, let what is in flight complete (or time out). */
  private beginDrain(): void {
    if (!this.running) return
    this.running = false
    this.draining = true
    this.nextStepAt = Infinity
    this.open?.stop()
    this.checkDrained()
  }

  private checkDrained(): void {
    if (this.conns.every((c) => c.inFlight === 0)) this.end()
  }

  /** Time-bound end: the window closed; requests still in flight are recorded as such. */
  private finishWindow(): void {
    this.running = false
    this.draining = false
    for (const c of this.conns) c.failAll(ERR_INFLIGHT)
    this.end()
  }

  private end(): void {
    if (!this.resolveDone) return
    this.running = false
    this.draining = false
    const now = performance.now()
    this.stepTimeUntil(now)
    this.step = null
    if (this.timer) clearTimeout(this.timer)
    if (this.sweeper) clearInterval(this.sweeper)
    this.timer = null
    this.sweeper = null
    this.open?.stop()
    for (const c of this.conns) c.close()
    // The last, partial second (a window that is not whole seconds, or a drain) gets its tick; a
    // slice of a few ms is folded into the second before, so the series holds every request. A
    // window of whole seconds whose timer fired late (a busy machine) has no partial second.
    const closedAt = Math.min(now, this.windowEndAt ?? now)
    this.tick(!(closedAt - (this.nextTickAt - 1000) > 50 || this.tickIndex === 0))
    const resolve = this.resolveDone
    this.resolveDone = null
    resolve({
      seconds: (now - this.startAt) / 1000,
      phaseSeconds: this.phaseSeconds,
      sent: this.sent,
      stopped: this.stopped,
      schedule: this.open ? this.open.counts(now) : null,
      serverTimingInvalid: serverTimingInvalidByPhase(this.conns),
      ...this.skips.result(),
      streamLimit: this.lowestStreamLimit,
    })
  }
}
