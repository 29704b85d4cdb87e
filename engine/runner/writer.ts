// The ledger writer: a worker thread of the runner process. It owns the SQLite connection, so the
// load thread never blocks on a transaction (a 5 000-row insert takes ~25 ms; on the load thread it
// doubled the recorded p99), and it keeps the HDR histograms, so recording costs the load thread
// nothing but a typed-array store. Each batch is committed as one block (a BLOB of its columns):
// the writer shares the generator's CPU, and a block costs ~0.2 µs per request where row inserts
// cost ~1.5 µs. Blocks become `samples` rows after the run has ended, in the engine host's
// background (ledger/expander.ts). A killed runner loses at most the batch in flight. A failing
// disk (full, I/O error) is a fatal error: reported once, naming the disk; the runner ends the run,
// and nothing more is written.
import { parentPort } from 'node:worker_threads'
import { openDb, type Db } from '../db/db.ts'
import { secondPoint, StatsAccumulator } from '../metrics/accumulate.ts'
import {
  EMPTY_STATS,
  encodeHistogram,
  initHdr,
  latencyStats,
  newHistogram,
  record,
  type Histogram,
} from '../metrics/hdr.ts'
import { encodeStats } from '../metrics/encoded.ts'
import { skippedByStep } from '../metrics/skipped.ts'
import type { PhaseSummary, ScheduleStats, TargetRoundSummary } from '../api/types.ts'
import { LedgerWriter } from '../store/ledger-writer.ts'
import { blockInserter } from '../ledger/blocks.ts'
import { storageFailure } from '../store/disk.ts'
import type { FromWriter, Segment, ToWriter } from './protocol.ts'
import type { ScheduleCounts } from './openloop.ts'
import { transferList, type Columns } from '../ledger/columns.ts'
import { debugCpu, encodedSecond } from './writer-agent.ts'
import { applyCut, AutoWarmup } from './auto-warmup.ts'

const port = parentPort
if (!port) throw new Error('writer.ts must run as a worker thread')

function send(msg: FromWriter, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(msg, transfer)
}

interface SegmentState {
  segment: Segment
  second: StatsAccumulator
  /** The second written last, kept so that a short final slice is folded into it. */
  prev: StatsAccumulator
  prevTick: Extract<ToWriter, { type: 'tick' }> | null
  phases: (StatsAccumulator | undefined)[]
  stepNames: string[]
  steps: (StatsAccumulator | undefined)[]
  /** Connect times (µs) of the connections opened. */
  connect: Histogram | null
  /** Rate mode: how late each request left (µs), and how many left more than 1 ms late. */
  lateness: Histogram | null
  late: number
  /** load.warmup: auto: the seconds that may be its warm-up, held apart until it ends. */
  auto: AutoWarmup | null
  /** The final slice's requests were held (auto): they revise a held second. */
  sliceHeld: boolean
}

/** A send more than this late (µs) counts as late. */
const LATE_US = 1000

let db: Db | null = null
let dbPath = ''
/** Set by the first storage failure: nothing more is written. */
/** How long the writer waits for another connection's write lock. */
const LOCK_WAIT_MS = 60_000
let broken: string | null = null
let ledger: LedgerWriter | null = null
/** The run's requests, a block per batch (engine/ledger/blocks.ts). */
let insertBlock: ReturnType<typeof blockInserter> | null = null
let phaseNames: string[] = []
let warmupPhases: boolean[] = []
/** load.warmup: auto: how many seconds each segment holds (null: all of them); undefined: off. */
let autoHold: number | null | undefined
let rows = 0
/** Agent mode: seconds and segments also go out as encoded statistics, to be summed exactly. */
let encode = false
const segments = new Map<number, SegmentState>()

function open(path: string, runId: number, phases: string[], warmup: boolean[]): void {
  dbPath = path
  db = openDb(path, { skipMigrations: true })
  // Another connection may hold the write lock for a while (the app's expander, the rows thread
  // starved on an idle CPU: run-rows.ts, a user's own sqlite3): a batch given up on after SQLite's
  // usual 5 s would fail the run, so the writer waits up to a minute (locked.long.test.ts). Its
  // batches wait in memory meanwhile; the load thread goes on.
  db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`)
  ledger = new LedgerWriter(db, runId)
  insertBlock = blockInserter(db, runId)
  phaseNames = phases
  warmupPhases = warmup
}

function onBatch(segIndex: number, c: Columns): void {
  const st = segments.get(segIndex)
  if (!st || !insertBlock) throw new Error(`batch for unknown segment ${segIndex}`)
  if (broken) {
    // The disk failed: these requests cannot be stored, and summaries count only what was.
    c.count = 0
    send({ type: 'free', columns: c }, transferList(c))
    return
  }
  const held = st.auto?.holding === true
  try {
    const id = insertBlock(st.segment.targetIndex, st.segment.round, c)
    if (held) st.auto!.block(id)
    st.sliceHeld = held
  } catch (err) {
    c.count = 0
    send({ type: 'free', columns: c }, transferList(c))
    throw err
  }
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
    // A held second (warmup: auto) joins a phase when its segment's cut is known.
    if (!held) (st.phases[phase] ??= new StatsAccumulator()).add(lat, cor, status, bytes, err, app, dbUs)
    const step = c.step[i]!
    // A scenario's steps are figures of the measured window: warm-up requests stay out of them.
    if (step !== 255 && warmupPhases[phase] !== true)
      (held ? st.auto!.step(step) : (st.steps[step] ??= new StatsAccumulator())).add(
        lat,
        cor,
        status,
        bytes,
        err,
        app,
        dbUs,
      )
  }
  c.count = 0
  send({ type: 'free', columns: c }, transferList(c))
}

function onTimings(segIndex: number, connects: Float64Array, lags: Float64Array): void {
  const st = segments.get(segIndex)
  if (!st) return
  if (connects.length > 0) {
    const h = (st.connect ??= newHistogram())
    for (const us of connects) record(h, us)
  }
  if (lags.length > 0) {
    const h = (st.lateness ??= newHistogram())
    for (const us of lags) {
      // 0 is recorded as 1 µs (HDR's lowest value); a send on time shows as ≤ 1 µs late.
      record(h, us)
      if (us > LATE_US) st.late++
    }
  }
}

function scheduleStats(st: SegmentState, counts: ScheduleCounts | null): ScheduleStats | null {
  if (!counts) return null
  return {
    ...counts,
    late: st.late,
    lateness: st.lateness ? latencyStats(st.lateness) : { ...EMPTY_STATS },
  }
}

function seriesPoint(st: SegmentState, acc: StatsAccumulator, tick: Extract<ToWriter, { type: 'tick' }>) {
  const { point, status } = secondPoint(acc, latencyStats(acc.latency), {
    target: st.segment.target,
    round: st.segment.round,
    t: tick.t,
    phase: phaseNames[tick.phase] ?? 'main',
    connections: tick.connections,
    generatorCpu: tick.generatorCpu,
  })
  return { point, status: JSON.stringify(status) }
}

function onTick(msg: Extract<ToWriter, { type: 'tick' }>): void {
  const st = segments.get(msg.segment)
  if (!st || !ledger || broken) return
  if (msg.merge && st.prevTick) {
    // The window closed a few ms into a new second: those requests join the second before,
    // whose row is written again, so the series adds up to the samples (and the chart has no
    // sliver of a second at its end).
    st.prev.addAll(st.second)
    st.second.reset()
    const tick = { ...st.prevTick, connections: Math.max(st.prevTick.connections, msg.connections) }
    const { point, status } = seriesPoint(st, st.prev, tick)
    ledger.insertSeries(point, st.segment.targetIndex, tick.phase, status)
    st.auto?.revise(point, st.prev, st.sliceHeld)
    // An agent's second changed after it was sent: it goes out again, replacing the first.
    if (encode) send({ type: 'second-revised', encoded: encodedSecond(msg.segment, tick, st.prev) })
    return
  }
  const { point, status } = seriesPoint(st, st.second, msg)
  ledger.insertSeries(point, st.segment.targetIndex, msg.phase, status)
  st.auto?.second(point, st.second)
  const encoded = encode ? encodedSecond(msg.segment, msg, st.second) : undefined
  // This second becomes the one a final slice may be folded into.
  const done = st.prev
  st.prev = st.second
  st.prevTick = msg
  done.reset()
  st.second = done
  const held = st.auto?.totals()
  let requests = held?.requests ?? 0
  let errors = held?.errors ?? 0
  for (const p of st.phases) {
    if (!p) continue
    requests += p.requests
    errors += p.errorTotal()
  }
  send({
    type: 'second',
    segment: msg.segment,
    point,
    totals: { requests, errors },
    generatorWait: msg.generatorWait,
    ...(encoded ? { encoded } : {}),
  })
}

function onSegmentEnd(end: Extract<ToWriter, { type: 'segment-end' }>): void {
  const { segment: segIndex, seconds, schedule } = end
  const measuredSeconds = end.phaseSeconds
  const invalidByPhase = end.serverTimingInvalid
  const st = segments.get(segIndex)
  if (!st || !ledger) throw new Error(`segment-end for unknown segment ${segIndex}`)
  // warmup: auto: the held seconds go to the warm-up phase or the measured one, as the cut says.
  const cut = st.auto ? applyCut(st.auto, st, measuredSeconds, warmupPhases) : null
  const phaseSeconds = cut?.phaseSeconds ?? measuredSeconds
  // Warm-up phases are kept as phases but stay out of the segment's figures (and so out of the
  // thresholds and comparisons, which read them), time included.
  const total = new StatsAccumulator()
  const phases: PhaseSummary[] = []
  let warmupSeconds = 0
  // Like app and db time, the count of invalid Server-Timing headers leaves warm-up phases out.
  const serverTimingInvalid = invalidByPhase.reduce(
    (n, k, i) => (warmupPhases[i] === true ? n : n + (k ?? 0)),
    0,
  )
  st.phases.forEach((acc, i) => {
    const warmup = warmupPhases[i] === true
    if (warmup) warmupSeconds += phaseSeconds[i] ?? 0
    if (!acc) return
    if (!warmup) total.addAll(acc)
    phases.push({
      phase: phaseNames[i] ?? 'main',
      ...acc.toBlock(phaseSeconds[i] ?? 0),
      ...(warmup ? { warmup: true } : {}),
    })
  })
  const block = total.toBlock(Math.max(0, seconds - warmupSeconds))
  const skipped = skippedByStep(st.stepNames, end.skipped)
  const steps = st.stepNames.length
    ? st.stepNames.map((name, i) => ({
        step: name,
        ...(st.steps[i] ?? new StatsAccumulator()).toBlock(Math.max(0, seconds - warmupSeconds)),
        ...(skipped[i] ? { skipped: skipped[i] } : {}),
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
    connect: st.connect ? latencyStats(st.connect) : null,
    schedule: scheduleStats(st, schedule),
    serverTimingInvalid,
    ...(cut ? { steady: cut.steady } : {}),
    ...(end.streamLimit != null ? { streamLimit: end.streamLimit } : {}),
  }
  // The summary and the warm-up's rows and blocks moved to its phase: one transaction.
  db!.transaction(() => {
    ledger!.writeSummary(st.segment.targetIndex, summary)
    if (cut)
      ledger!.moveToWarmup(
        st.segment.targetIndex,
        st.segment.round,
        cut.blocks,
        cut.from,
        warmupPhases.indexOf(true),
      )
  })()
  const encoded = encode
    ? {
        segment: segIndex,
        seconds,
        phaseSeconds,
        total: encodeStats(total),
        phases: phaseNames.map((_, i) => (st.phases[i] ? encodeStats(st.phases[i]) : null)),
        steps: st.stepNames.length
          ? st.stepNames.map((_, i) => (st.steps[i] ? encodeStats(st.steps[i]) : null))
          : null,
        connect: st.connect ? encodeHistogram(st.connect) : null,
        schedule: schedule
          ? { ...schedule, late: st.late, lateness: st.lateness ? encodeHistogram(st.lateness) : null }
          : null,
        serverTimingInvalid,
        ...(end.skipped ? { skipped: end.skipped } : {}),
      }
    : undefined
  total.destroy()
  st.connect?.destroy()
  st.lateness?.destroy()
  st.second.destroy()
  st.prev.destroy()
  st.auto?.destroy()
  for (const p of st.phases) p?.destroy()
  for (const p of st.steps) p?.destroy()
  segments.delete(segIndex)
  send({ type: 'segment-summary', summary, ...(encoded ? { encoded } : {}) })
}

/** A failure: a storage failure names the disk and stops all writing; the stack only when debugging. */
function report(err: unknown): void {
  const disk = storageFailure(err, dbPath)
  if (disk) broken ??= disk
  const base = disk ?? (err instanceof Error ? err.message : String(err))
  const error =
    process.env.CANNONADE_DEBUG && err instanceof Error && err.stack ? `${base}\n${err.stack}` : base
  send({ type: 'error', error, fatal: disk !== null })
}

port.on('message', (msg: ToWriter) => {
  try {
    switch (msg.type) {
      case 'open':
        initHdr().then(
          () => {
            try {
              open(msg.dbPath, msg.runId, msg.phases, msg.warmup)
              encode = msg.encode ?? false
              autoHold = msg.autoWarmup?.hold
              send({ type: 'ready' })
            } catch (err) {
              report(err)
            }
          },
          (err: unknown) => report(err),
        )
        break
      case 'segment-start':
        segments.set(msg.segment.index, {
          segment: msg.segment,
          second: new StatsAccumulator(),
          prev: new StatsAccumulator(),
          prevTick: null,
          phases: [],
          stepNames: msg.stepNames,
          steps: [],
          connect: null,
          lateness: null,
          late: 0,
          auto: autoHold === undefined ? null : new AutoWarmup(autoHold),
          sliceHeld: false,
        })
        break
      case 'batch':
        onBatch(msg.segment, msg.columns)
        break
      case 'timings':
        onTimings(msg.segment, msg.connects, msg.lags)
        break
      case 'tick':
        onTick(msg)
        break
      case 'segment-end':
        if (broken) send({ type: 'error', error: broken, fatal: true })
        else onSegmentEnd(msg)
        break
      case 'close':
        if (process.env.CANNONADE_DEBUG_CPU) debugCpu(rows)
        try {
          db?.close()
        } catch {
          /* a failed disk may refuse even this; the connection goes with the thread */
        }
        db = null
        ledger = null
        insertBlock = null
        send({ type: 'closed', rows })
        break
    }
  } catch (err) {
    report(err)
  }
})
