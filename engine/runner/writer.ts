// The ledger writer: a worker thread of the runner process. It owns the SQLite connection, so the
// load thread never blocks on a transaction (a 5 000-row insert takes ~25 ms; on the load thread it
// doubled the recorded p99), and it keeps the HDR histograms, so recording costs the load thread
// nothing but a typed-array store. During a segment each batch is committed as one block (a BLOB of
// its columns): the writer shares the generator's CPU, and a block costs ~0.2 µs per request where
// row inserts cost ~1.5 µs. Blocks become `samples` rows when the segment ends (or, after a crash,
// in the parent). A killed runner loses at most the batch in flight.
import { parentPort } from 'node:worker_threads'
import { openDb, type Db } from '../store/db.ts'
import { StatsAccumulator } from '../metrics/accumulate.ts'
import { encodeHistogram, initHdr, latencyStats } from '../metrics/hdr.ts'
import type { PhaseSummary, SeriesPoint, TargetRoundSummary } from '../api/types.ts'
import { LedgerWriter } from '../store/ledger-writer.ts'
import type { FromWriter, Segment, ToWriter } from './protocol.ts'
import type { Columns } from './columns.ts'
import { transferList } from './columns.ts'

const port = parentPort
if (!port) throw new Error('writer.ts must run as a worker thread')

function send(msg: FromWriter, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(msg, transfer)
}

interface SegmentState {
  segment: Segment
  second: StatsAccumulator
  phases: (StatsAccumulator | undefined)[]
  stepNames: string[]
  steps: (StatsAccumulator | undefined)[]
}

let db: Db | null = null
let ledger: LedgerWriter | null = null
let phaseNames: string[] = []
let rows = 0
const segments = new Map<number, SegmentState>()

function open(dbPath: string, runId: number, phases: string[]): void {
  db = openDb(dbPath, { skipMigrations: true })
  ledger = new LedgerWriter(db, runId)
  phaseNames = phases
}

function onBatch(segIndex: number, c: Columns): void {
  const st = segments.get(segIndex)
  if (!st || !ledger) throw new Error(`batch for unknown segment ${segIndex}`)
  ledger.insertBlock(st.segment.targetIndex, st.segment.round, c)
  rows += c.count
  for (let i = 0; i < c.count; i++) {
    const phase = c.phase[i]!
    const lat = c.latencyUs[i]!
    const cor = c.correctedUs[i]!
    const status = c.status[i]!
    const bytes = c.bytes[i]!
    const err = c.error[i]!
    const app = c.appUs[i]!
    const dbUs = c.dbUs[i]!
    st.second.add(lat, cor, status, bytes, err, app, dbUs)
    ;(st.phases[phase] ??= new StatsAccumulator()).add(lat, cor, status, bytes, err, app, dbUs)
    const step = c.step[i]!
    if (step !== 255) (st.steps[step] ??= new StatsAccumulator()).add(lat, cor, status, bytes, err, app, dbUs)
  }
  c.count = 0
  send({ type: 'free', columns: c }, transferList(c))
}

function onTick(msg: Extract<ToWriter, { type: 'tick' }>): void {
  const st = segments.get(msg.segment)
  if (!st || !ledger) return
  const s = st.second
  const lat = latencyStats(s.latency)
  const point: SeriesPoint = {
    target: st.segment.target,
    round: st.segment.round,
    t: msg.t,
    phase: phaseNames[msg.phase] ?? 'main',
    connections: msg.connections,
    requests: s.requests,
    errors: s.errorTotal(),
    errorsByKind: s.errorCounts(),
    bytes: s.bytes,
    mean: lat.mean,
    p50: lat.p50,
    p90: lat.p90,
    p95: lat.p95,
    p99: lat.p99,
    p999: lat.p999,
    max: lat.max,
    generatorCpu: msg.generatorCpu,
  }
  const status = {
    '1xx': s.status[0],
    '2xx': s.status[1],
    '3xx': s.status[2],
    '4xx': s.status[3],
    '5xx': s.status[4],
  }
  ledger.insertSeries(point, st.segment.targetIndex, msg.phase, JSON.stringify(status))
  s.reset()
  let requests = 0
  let errors = 0
  for (const p of st.phases) {
    if (!p) continue
    requests += p.requests
    errors += p.errorTotal()
  }
  send({ type: 'second', segment: msg.segment, point, totals: { requests, errors } })
}

function onSegmentEnd(segIndex: number, seconds: number, phaseSeconds: number[]): void {
  const st = segments.get(segIndex)
  if (!st || !ledger) return
  // The window is over: now the blocks may become rows, at no cost to the measurement.
  ledger.expandBlocks()
  const total = new StatsAccumulator()
  const phases: PhaseSummary[] = []
  st.phases.forEach((acc, i) => {
    if (!acc) return
    total.addAll(acc)
    phases.push({ phase: phaseNames[i] ?? 'main', ...acc.toBlock(phaseSeconds[i] ?? 0) })
  })
  const block = total.toBlock(seconds)
  const steps = st.stepNames.length
    ? st.stepNames.map((name, i) => ({
        step: name,
        ...(st.steps[i] ?? new StatsAccumulator()).toBlock(seconds),
      }))
    : undefined
  const summary: TargetRoundSummary = {
    target: st.segment.target,
    round: st.segment.round,
    ...block,
    phases,
    ...(steps ? { steps } : {}),
    histogram: encodeHistogram(total.latency),
    correctedHistogram: total.corrected ? encodeHistogram(total.corrected) : null,
  }
  ledger.writeSummary(st.segment.targetIndex, summary)
  total.destroy()
  st.second.destroy()
  for (const p of st.phases) p?.destroy()
  for (const p of st.steps) p?.destroy()
  segments.delete(segIndex)
  send({ type: 'segment-summary', summary })
}

port.on('message', (msg: ToWriter) => {
  try {
    switch (msg.type) {
      case 'open':
        void initHdr().then(() => {
          open(msg.dbPath, msg.runId, msg.phases)
          send({ type: 'ready' })
        })
        break
      case 'segment-start':
        segments.set(msg.segment.index, {
          segment: msg.segment,
          second: new StatsAccumulator(),
          phases: [],
          stepNames: msg.stepNames,
          steps: [],
        })
        break
      case 'batch':
        onBatch(msg.segment, msg.columns)
        break
      case 'tick':
        onTick(msg)
        break
      case 'segment-end':
        onSegmentEnd(msg.segment, msg.seconds, msg.phaseSeconds)
        break
      case 'close':
        if (process.env.CANNONADE_DEBUG_CPU) {
          const u = (
            process as NodeJS.Process & { threadCpuUsage?: () => NodeJS.CpuUsage }
          ).threadCpuUsage?.()
          if (u)
            process.stderr.write(
              `[writer] rows ${rows} cpu ${((u.user + u.system) / 1e3).toFixed(0)} ms (${((u.user + u.system) / Math.max(1, rows)).toFixed(2)} us/row)\n`,
            )
        }
        db?.close()
        db = null
        ledger = null
        send({ type: 'closed', rows })
        break
    }
  } catch (err) {
    send({ type: 'error', error: err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err) })
  }
})
