// The runner process: load generation is CPU-bound, so it never runs in the UI or Electron's main
// process. Its main thread drives the connections; a worker thread (writer.ts) writes the ledger.
// Started by supervisor.ts with child_process.fork; talks over the IPC channel (protocol.ts).
import { SegmentDriver } from './driver.ts'
import { Ledger } from './ledger.ts'
import { isAdaptive, MAX_ROUNDS } from '../config/rounds.ts'
import { orderSegments, roundSegments, runSeconds } from '../config/segments.ts'
import type { FromRunner, FromWriter, Segment, ToRunner } from './protocol.ts'
import { WriterLink } from './writer-link.ts'

/** How long the writer may take to answer: opening the database, a segment's summary, closing. */
const WRITER_TIMEOUT_MS = Number(process.env.CANNONADE_WRITER_TIMEOUT_MS ?? 60_000)

function send(msg: FromRunner): void {
  // After the parent is gone there is nobody to tell; sending would throw.
  if (process.connected) process.send?.(msg)
}

let current: SegmentDriver | null = null
let stopRequested = false
let started = false
/** Agent mode: the barriers released so far, and whoever waits for the next release or a stop. */
const released = new Map<number, Extract<ToRunner, { type: 'go' }>>()
let wake: (() => void) | null = null
/** Wakes a cooldown early when the run is stopped. */
let wakeSleep: (() => void) | null = null
/** Rounds until precise: the parent's answers after each round, and whoever waits for the next. */
const roundAnswers = new Map<number, boolean>()
let wakeRounds: (() => void) | null = null

function requestStop(): void {
  stopRequested = true
  current?.stop()
  wakeSleep?.()
  wake?.()
  wakeRounds?.()
}

// The parent's watchdog (supervisor.ts) kills a runner it has not heard from for a while: one
// heartbeat as soon as this process runs, then at the pace the start message asks for.
send({ type: 'heartbeat' })
let heartbeat = setInterval(() => send({ type: 'heartbeat' }), 5000)
heartbeat.unref()

process.on('message', (msg: ToRunner) => {
  if (msg.type === 'start' && !started) {
    started = true
    clearInterval(heartbeat)
    heartbeat = setInterval(() => send({ type: 'heartbeat' }), msg.heartbeatMs)
    heartbeat.unref()
    run(msg).catch((err: unknown) => {
      send({ type: 'failed', error: err instanceof Error ? err.message : String(err) })
      setImmediate(() => process.exit(1))
    })
  } else if (msg.type === 'stop') {
    requestStop()
  } else if (msg.type === 'go') {
    released.set(msg.segment, msg)
    wake?.()
  } else if (msg.type === 'rounds') {
    roundAnswers.set(msg.round, msg.next)
    wakeRounds?.()
  }
})
// The parent went away (killed, crashed): nobody will read our results, but the segment ends as a
// stop would, its requests and summary written; the next process to open the database marks the
// run aborted (store/recover.ts). Before a run started there is nothing to write.
process.on('disconnect', () => {
  if (!started) process.exit(0)
  requestStop()
})

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms))
    function done(): void {
      clearTimeout(timer)
      wakeSleep = null
      resolve()
    }
    wakeSleep = done
  })
}

/** Wall-clock ms with sub-millisecond resolution, comparable between processes of one machine. */
function wallMs(): number {
  return performance.timeOrigin + performance.now()
}

/** Agent mode: say the segment is ready, and wait for its release (null: stopped instead). */
async function barrier(segment: number): Promise<Extract<ToRunner, { type: 'go' }> | null> {
  send({ type: 'barrier', segment })
  while (!released.has(segment) && !stopRequested) await new Promise<void>((r) => (wake = r))
  wake = null
  return stopRequested ? null : (released.get(segment) ?? null)
}

/**
 * Rounds until precise: round `round` is over; another one runs if the parent says so (it decides
 * from every segment's summary and noise, and writes the next round's rows first). A parent that
 * does not answer within the writer's time limit ends the rounds.
 */
async function nextRound(round: number): Promise<boolean> {
  send({ type: 'round-end', round })
  const deadline = setTimeout(() => {
    if (!roundAnswers.has(round)) roundAnswers.set(round, false)
    wakeRounds?.()
  }, WRITER_TIMEOUT_MS)
  while (!roundAnswers.has(round) && !stopRequested) await new Promise<void>((r) => (wakeRounds = r))
  clearTimeout(deadline)
  wakeRounds = null
  return !stopRequested && roundAnswers.get(round) === true
}

/**
 * The segments in the order they run: a fixed number of rounds all known up front; rounds until
 * precise one round at a time, each after the parent's answer. Each round's order is the config's
 * (segments.ts: a randomized schedule draws it from the seed and the round).
 */
async function* plannedSegments(config: StartMsg['config']): AsyncGenerator<Segment> {
  if (!isAdaptive(config)) {
    yield* orderSegments(config)
    return
  }
  let index = 0
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const segments = roundSegments(config, round, index)
    yield* segments
    index += segments.length
    if (stopRequested || !(await nextRound(round))) return
  }
}

/**
 * Until `atMs`: a timer for most of the wait, then a spin. On a busy machine a timer fires 10 ms
 * late or more, while a process that spins is still running when the instant comes: the last
 * SPIN_MS (a few tens of ms of CPU per segment) keep the agents of a run within a ms or two.
 */
const SPIN_MS = 25
async function until(atMs: number): Promise<void> {
  const left = atMs - wallMs()
  if (left > SPIN_MS) await sleep(left - SPIN_MS)
  while (wallMs() < atMs && !stopRequested) {
    // spin
  }
}

type StartMsg = Extract<ToRunner, { type: 'start' }>

/** What the writer says, passed on to the parent: progress each second, revisions, segment summaries. */
function relay(
  m: FromWriter,
  run: {
    msg: StartMsg
    ledger: Ledger
    segmentNames: Map<number, { target: string; round: number }>
    generatorCpu: number[]
    generatorWait: number[]
  },
): void {
  switch (m.type) {
    case 'free':
      run.ledger.recycle(m.columns)
      return
    case 'second': {
      const seg = run.segmentNames.get(m.segment)
      if (m.point.generatorCpu !== null) {
        run.generatorCpu.push(m.point.generatorCpu)
        run.generatorWait.push(m.generatorWait ?? 0)
      }
      send({
        type: 'progress',
        event: {
          type: 'progress',
          runId: run.msg.runId,
          elapsedSeconds: m.point.t + 1,
          totalSeconds: runSeconds(run.msg.config, run.msg.plan),
          target: seg?.target ?? m.point.target,
          round: seg?.round ?? m.point.round,
          phase: m.point.phase,
          point: m.point,
          totals: m.totals,
          generatorSaturated: (m.point.generatorCpu ?? 0) + (m.generatorWait ?? 0) > 90,
          resources: [], // the parent adds its monitors' samples
        },
        ...(m.encoded ? { encoded: m.encoded } : {}),
      })
      return
    }
    case 'second-revised':
      send({ type: 'second-revised', encoded: m.encoded })
      return
    case 'segment-summary':
      send({ type: 'segment', summary: m.summary, ...(m.encoded ? { encoded: m.encoded } : {}) })
      return
  }
}

/**
 * When a segment starts on the run's timeline (null: stopped before it). `clock.t0` is the run's
 * start (performance.now()), set by the first segment.
 */
async function segmentStart(
  seg: Segment,
  msg: StartMsg,
  clock: { t0: number },
): Promise<{ startSecond: number; startAt?: number } | null> {
  const { runId, config } = msg
  if (msg.agent) {
    // Every agent starts the segment at the same instant, on the second the coordinator chose
    // (it also keeps the cooldown): the agents' seconds line up whatever their clocks say.
    const go = await barrier(seg.index)
    if (!go) return null
    await until(go.atMs)
    if (stopRequested) return null
    // A busy machine may wake us late: the load starts late (the start skew says by how much),
    // but the segment's timeline starts at the release, so its seconds (and open-loop slots)
    // line up with every other agent's whatever the delay.
    const now = wallMs()
    const startAt = performance.now() - Math.max(0, now - go.atMs)
    if (seg.index === 0) {
      clock.t0 = startAt
      send({ type: 'started', runId, t0Epoch: go.atMs, pid: process.pid })
    }
    send({ type: 'segment-started', segment: seg.index, atMs: now })
    return { startSecond: go.startSecond, startAt }
  }
  if (seg.index > 0 && config.cooldownSeconds > 0) await sleep(config.cooldownSeconds * 1000)
  if (stopRequested) return null
  // Segments start on whole seconds of the run timeline, so series rows line up with resource samples.
  if (seg.index === 0) {
    clock.t0 = performance.now()
    // The same clock as the samples' start times, to the µs (Date.now() is whole ms).
    send({ type: 'started', runId, t0Epoch: performance.timeOrigin + clock.t0, pid: process.pid })
  } else {
    // Up to 100 ms past a whole second counts as on it; otherwise wait for the next one.
    const frac = (performance.now() - clock.t0) % 1000
    if (frac > 100) await sleep(1000 - frac)
  }
  // The parent measures what else ran on the machine from here to the segment's summary.
  const atMs = wallMs()
  send({ type: 'segment-started', segment: seg.index, atMs, targetIndex: seg.targetIndex, round: seg.round })
  return { startSecond: Math.floor((performance.now() - clock.t0) / 1000) }
}

async function run(msg: StartMsg): Promise<void> {
  const { config, plan, runId } = msg
  const segmentNames = new Map<number, { target: string; round: number }>()
  const generatorCpu: number[] = []
  const generatorWait: number[] = []
  const link: WriterLink = new WriterLink({
    dbPath: msg.dbPath,
    timeoutMs: WRITER_TIMEOUT_MS,
    onMessage: (m) => relay(m, { msg, ledger, segmentNames, generatorCpu, generatorWait }),
    onFailure: requestStop,
  })
  const ledger = new Ledger(link.worker)
  const open = { type: 'open', dbPath: msg.dbPath, runId, phases: plan.phases, warmup: plan.warmup } as const
  // warmup: auto cuts at most half a segment: its first half (and a second) is held until it ends.
  const hold = plan.seconds === null ? null : Math.ceil(plan.seconds / 2) + 1
  const auto = config.load.warmup === 'auto' ? { autoWarmup: { hold } } : {}
  await link.ask({ ...open, ...auto, encode: msg.agent !== undefined }, 'ready', 'opening the database')

  const share = msg.agent?.share ?? { index: 0, count: 1 }
  // Agent i of N numbers its requests and scenario passes i, i + N, …: unique across agents.
  const counter = { next: share.index, stride: share.count }
  const iterations = { next: share.index, stride: share.count }
  const clock = { t0: 0 }
  for await (const seg of plannedSegments(config)) {
    if (stopRequested) break
    const target = config.targets[seg.targetIndex]!
    const start = await segmentStart(seg, msg, clock)
    if (!start) break
    segmentNames.set(seg.index, { target: seg.target, round: seg.round })
    ledger.segment = seg.index
    link.post({ type: 'segment-start', segment: seg, stepNames: target.steps?.map((s) => s.name) ?? [] })
    current = new SegmentDriver({
      target,
      load: config.load,
      plan,
      t0: clock.t0,
      startSecond: start.startSecond,
      correlationHeader: config.correlationHeader,
      correlationPrefix: msg.correlationPrefix,
      counter,
      iterations,
      share,
      ...(start.startAt !== undefined ? { startAt: start.startAt } : {}),
      ledger,
      onTick: (info) => link.post({ type: 'tick', segment: seg.index, ...info }),
    })
    const result = await current.run()
    current = null
    if (link.failure) break
    const { seconds, phaseSeconds, schedule, serverTimingInvalid, skipped, streamLimit } = result
    const end = {
      type: 'segment-end',
      segment: seg.index,
      seconds,
      phaseSeconds,
      schedule,
      serverTimingInvalid,
      skipped,
      streamLimit,
    } as const
    await link
      .ask(end, 'segment-summary', `the summary of ${seg.target} round ${seg.round}`)
      .catch(() => undefined)
  }
  await link.close()
  if (link.failure !== null) throw new Error(link.failure.message)
  send({ type: 'done', stopped: stopRequested, generator: { cpu: generatorCpu, wait: generatorWait } })
  setImmediate(() => process.exit(0))
}

export type { Segment }
