// The runner process: load generation is CPU-bound, so it never runs in the UI or Electron's main
// process. Its main thread drives the connections; a worker thread (writer.ts) writes the ledger.
// Started by supervisor.ts with child_process.fork; talks over the IPC channel (protocol.ts).
import { Worker } from 'node:worker_threads'
import type { RunConfig } from '../config/schema.ts'
import type { Plan } from '../config/compile.ts'
import { SegmentDriver } from './driver.ts'
import { Ledger } from './ledger.ts'
import { orderSegments } from '../config/segments.ts'
import type { FromRunner, FromWriter, Segment, ToRunner, ToWriter } from './protocol.ts'

function send(msg: FromRunner): void {
  process.send?.(msg)
}

let current: SegmentDriver | null = null
let stopRequested = false
let started = false

process.on('message', (msg: ToRunner) => {
  if (msg.type === 'start' && !started) {
    started = true
    run(msg).catch((err: unknown) => {
      send({ type: 'failed', error: err instanceof Error ? err.message : String(err) })
      setImmediate(() => process.exit(1))
    })
  } else if (msg.type === 'stop') {
    stopRequested = true
    current?.stop()
  }
})
// The parent went away: nobody will read our results, but what is written stays consistent.
process.on('disconnect', () => {
  stopRequested = true
  current?.stop()
})

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.max(0, ms)))
}

async function run(msg: Extract<ToRunner, { type: 'start' }>): Promise<void> {
  const { config, plan, runId } = msg
  const writer = new Worker(new URL('./writer.ts', import.meta.url))
  const ledger = new Ledger(writer)
  const waiters = new Map<string, (m: FromWriter) => void>()
  let writerError = null as string | null
  const segmentNames = new Map<number, { target: string; round: number }>()
  const totalSeconds = totalRunSeconds(config, plan)
  let t0 = 0
  const generatorCpu: number[] = []

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
        })
        return
      }
      case 'segment-summary':
        send({ type: 'segment', summary: m.summary })
        waiters.get('segment-summary')?.(m)
        return
      case 'error':
        writerError = m.error
        send({ type: 'log', level: 'error', message: `ledger writer: ${m.error}` })
        return
      default:
        waiters.get(m.type)?.(m)
    }
  })
  writer.on('error', (err: Error) => {
    writerError = err.message
  })
  const post = (m: ToWriter) => writer.postMessage(m)
  const waitFor = (type: string) => new Promise<FromWriter>((resolve) => waiters.set(type, resolve))

  const ready = waitFor('ready')
  post({ type: 'open', dbPath: msg.dbPath, runId, phases: plan.phases })
  await ready

  const segments = orderSegments(config)
  const counter = { next: 0 }
  const iterations = { next: 0 }
  for (const seg of segments) {
    if (stopRequested) break
    const target = config.targets[seg.targetIndex]!
    if (seg.index > 0 && config.cooldownSeconds > 0) await sleep(config.cooldownSeconds * 1000)
    if (stopRequested) break
    // Segments start on whole seconds of the run timeline, so series rows line up with resource samples.
    if (seg.index === 0) {
      t0 = performance.now()
      send({ type: 'started', runId, t0Epoch: Date.now(), pid: process.pid })
    } else {
      // Up to 100 ms past a whole second counts as on it; otherwise wait for the next one.
      const elapsed = performance.now() - t0
      const frac = elapsed % 1000
      if (frac > 100) await sleep(1000 - frac)
    }
    const startSecond = Math.floor((performance.now() - t0) / 1000)
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
      ledger,
      onTick: (info) => post({ type: 'tick', segment: seg.index, ...info }),
    })
    const result = await current.run()
    current = null
    const summary = waitFor('segment-summary')
    post({
      type: 'segment-end',
      segment: seg.index,
      seconds: result.seconds,
      phaseSeconds: result.phaseSeconds,
    })
    await summary
    if (writerError) throw new Error(`the ledger could not be written: ${writerError}`)
  }
  const closed = waitFor('closed')
  post({ type: 'close' })
  await closed
  await writer.terminate()
  send({ type: 'done', stopped: stopRequested, generator: { cpu: generatorCpu } })
  setImmediate(() => process.exit(0))
}

function totalRunSeconds(config: RunConfig, plan: Plan): number | null {
  if (plan.seconds === null) return null
  const n = config.targets.length * config.rounds
  return n * plan.seconds + (n - 1) * config.cooldownSeconds
}

export type { Segment }
