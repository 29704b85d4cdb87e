// The runner process: load generation is CPU-bound, so it never runs in the UI or Electron's main
// process. Its main thread drives the connections; a worker thread (writer.ts) writes the ledger.
// Started by supervisor.ts with child_process.fork; talks over the IPC channel (protocol.ts).
import { Worker } from 'node:worker_threads'
import { SegmentDriver } from './driver.ts'
import { Ledger } from './ledger.ts'
import { orderSegments, runSeconds } from '../config/segments.ts'
import type { FromRunner, FromWriter, Segment, ToRunner, ToWriter } from './protocol.ts'

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

function requestStop(): void {
  stopRequested = true
  current?.stop()
  wakeSleep?.()
  wake?.()
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

async function run(msg: Extract<ToRunner, { type: 'start' }>): Promise<void> {
  const { config, plan, runId } = msg
  const writer = new Worker(new URL('./writer.ts', import.meta.url))
  const ledger = new Ledger(writer)
  const segmentNames = new Map<number, { target: string; round: number }>()
  const totalSeconds = runSeconds(config, plan)
  let t0 = 0
  const generatorCpu: number[] = []

  // Every answer the load thread waits for, with the writer's failure or exit as an answer too,
  // and a time limit: a writer that hangs (a disk that does not answer) ends the run, never
  // leaves it waiting.
  let writerFailure = null as Error | null
  let closing = false
  const waiters = new Map<string, { resolve: (m: FromWriter) => void; reject: (e: Error) => void }>()
  const failWriter = (err: Error) => {
    writerFailure ??= err
    for (const w of waiters.values()) w.reject(err)
    waiters.clear()
    // Stop measuring what can no longer be stored.
    requestStop()
  }
  const waitFor = (type: FromWriter['type'], what: string): Promise<FromWriter> => {
    if (writerFailure) return Promise.reject(writerFailure)
    return new Promise<FromWriter>((resolve, reject) => {
      const timer = setTimeout(() => {
        failWriter(
          new Error(
            `the ledger writer did not answer within ${WRITER_TIMEOUT_MS / 1000} s (${what}); is the disk holding ${msg.dbPath} responding?`,
          ),
        )
      }, WRITER_TIMEOUT_MS)
      waiters.set(type, {
        resolve: (m) => {
          clearTimeout(timer)
          waiters.delete(type)
          resolve(m)
        },
        reject: (e) => {
          clearTimeout(timer)
          reject(e)
        },
      })
    })
  }

  writer.on('message', (m: FromWriter) => {
    switch (m.type) {
      case 'free':
        ledger.recycle(m.columns)
        return
      case 'second': {
        const seg = segmentNames.get(m.segment)
        if (m.point.generatorCpu !== null) generatorCpu.push(m.point.generatorCpu)
        send({
          type: 'progress',
          event: {
            type: 'progress',
            runId,
            elapsedSeconds: m.point.t + 1,
            totalSeconds,
            target: seg?.target ?? m.point.target,
            round: seg?.round ?? m.point.round,
            phase: m.point.phase,
            point: m.point,
            totals: m.totals,
            generatorSaturated: (m.point.generatorCpu ?? 0) > 90,
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
        waiters.get('segment-summary')?.resolve(m)
        return
      case 'error':
        // What the writer could not store makes the ledger incomplete: the run ends on it.
        failWriter(new Error(m.fatal ? m.error : `the ledger could not be written: ${m.error}`))
        return
      default:
        waiters.get(m.type)?.resolve(m)
    }
  })
  writer.on('error', (err: Error) => failWriter(new Error(`the ledger writer failed: ${err.message}`)))
  writer.on('exit', (code) => {
    if (!closing) failWriter(new Error(`the ledger writer stopped (exit code ${code})`))
  })
  const post = (m: ToWriter) => writer.postMessage(m)

  const ready = waitFor('ready', 'opening the database')
  post({
    type: 'open',
    dbPath: msg.dbPath,
    runId,
    phases: plan.phases,
    warmup: plan.warmup,
    encode: msg.agent !== undefined,
  })
  await ready

  const segments = orderSegments(config)
  const share = msg.agent?.share ?? { index: 0, count: 1 }
  // Agent i of N numbers its requests and scenario passes i, i + N, …: unique across agents.
  const counter = { next: share.index, stride: share.count }
  const iterations = { next: share.index, stride: share.count }
  for (const seg of segments) {
    if (stopRequested) break
    const target = config.targets[seg.targetIndex]!
    let startSecond: number
    let startAt: number | undefined
    if (msg.agent) {
      // Every agent starts the segment at the same instant, on the second the coordinator chose
      // (it also keeps the cooldown): the agents' seconds line up whatever their clocks say.
      const go = await barrier(seg.index)
      if (!go) break
      await until(go.atMs)
      if (stopRequested) break
      // A busy machine may wake us late: the load starts late (the start skew says by how much),
      // but the segment's timeline starts at the release, so its seconds (and open-loop slots)
      // line up with every other agent's whatever the delay.
      const now = wallMs()
      startAt = performance.now() - Math.max(0, now - go.atMs)
      if (seg.index === 0) {
        t0 = startAt
        send({ type: 'started', runId, t0Epoch: go.atMs, pid: process.pid })
      }
      startSecond = go.startSecond
      send({ type: 'segment-started', segment: seg.index, atMs: now })
    } else {
      if (seg.index > 0 && config.cooldownSeconds > 0) await sleep(config.cooldownSeconds * 1000)
      if (stopRequested) break
      // Segments start on whole seconds of the run timeline, so series rows line up with resource samples.
      if (seg.index === 0) {
        t0 = performance.now()
        // The same clock as the samples' start times, to the µs (Date.now() is whole ms).
        send({ type: 'started', runId, t0Epoch: performance.timeOrigin + t0, pid: process.pid })
      } else {
        // Up to 100 ms past a whole second counts as on it; otherwise wait for the next one.
        const elapsed = performance.now() - t0
        const frac = elapsed % 1000
        if (frac > 100) await sleep(1000 - frac)
      }
      startSecond = Math.floor((performance.now() - t0) / 1000)
    }
    segmentNames.set(seg.index, { target: seg.target, round: seg.round })
    ledger.segment = seg.index
    post({ type: 'segment-start', segment: seg, stepNames: target.steps?.map((s) => s.name) ?? [] })
    current = new SegmentDriver({
      target,
      load: config.load,
      plan,
      t0,
      startSecond,
      correlationHeader: config.correlationHeader,
      correlationPrefix: msg.correlationPrefix,
      counter,
      iterations,
      share,
      ...(startAt !== undefined ? { startAt } : {}),
      ledger,
      onTick: (info) => post({ type: 'tick', segment: seg.index, ...info }),
    })
    const result = await current.run()
    current = null
    if (writerFailure) break
    const summary = waitFor('segment-summary', `the summary of ${seg.target} round ${seg.round}`)
    post({
      type: 'segment-end',
      segment: seg.index,
      seconds: result.seconds,
      phaseSeconds: result.phaseSeconds,
      schedule: result.schedule,
    })
    await summary.catch(() => undefined)
  }
  // The writer closes its connection whatever happened; a writer that does not answer is ended.
  if (!writerFailure) {
    const closed = waitFor('closed', 'closing the database')
    post({ type: 'close' })
    await closed.catch(() => undefined)
  }
  closing = true
  await writer.terminate()
  if (writerFailure !== null) throw new Error(writerFailure.message)
  send({ type: 'done', stopped: stopRequested, generator: { cpu: generatorCpu } })
  setImmediate(() => process.exit(0))
}

export type { Segment }
