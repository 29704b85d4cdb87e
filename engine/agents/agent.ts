// One load agent (`cannonade agent`): joins its run once, measures its clock against the store's,
// heartbeats, runs its share of the load in a runner process (engine/runner/, the same one a plain
// run uses) with a barrier before every segment, sends each second and segment as encoded
// statistics, keeps its raw ledger in a local SQLite file (uploaded after the load only when the
// run asks), says how it ended, and exits. No restart logic: a restarted agent is refused at join.
import { join } from 'node:path'
import type { TargetRoundSummary } from '../api/types.ts'
import { startRun } from '../runner/supervisor.ts'
import { privateDir } from '../paths.ts'
import { openDb, type Db } from '../store/db.ts'
import { readRawBlocks } from '../store/agents.ts'
import { ledgerRowCount } from '../store/samples-read.ts'
import { measureOffset } from './coordination/clock.ts'
import type { AgentEnv } from './env.ts'
import { wallMs } from './coordination/memory.ts'
import type { AgentEnd, AgentStore, ClockOffset, EncodedSecond, RunSpec } from './coordination/protocol.ts'

export interface AgentOptions {
  env: AgentEnv
  store: AgentStore
  /** This agent's clock (ms since the epoch); tests inject a skewed one. Default: the wall clock. */
  clock?: () => number
  log?: (line: string) => void
}

export interface AgentResult extends AgentEnd {
  spec: RunSpec
  clock: ClockOffset
  ledger: string
  runId: number
}

/** How many times a row is offered to the store before the agent gives up on it (and says so). */
const ATTEMPTS = 3

export async function runAgent(o: AgentOptions): Promise<AgentResult> {
  const { env, store } = o
  const clock = o.clock ?? wallMs
  const log = o.log ?? (() => {})
  const me = `agent ${env.index}/${env.count}`
  privateDir(env.dataDir)
  const ledger = join(env.dataDir, 'ledger.db')
  // Join first: a refused agent (its index joined before) touches no ledger and sends no request.
  const spec = await store.join({
    runKey: env.runKey,
    index: env.index,
    count: env.count,
    host: env.host,
    pid: process.pid,
    ledger,
  })
  log(`${me} joined run ${spec.runKey} on ${env.host} (pid ${process.pid})`)
  const offset = await measureOffset(() => store.now(), clock)
  await store.clock(offset)
  log(
    `${me}: clock offset to the store ${offset.offsetMs.toFixed(2)} ms (± ${(offset.delayMs / 2).toFixed(2)} ms)`,
  )

  // Store clock ↔ this process's wall clock (what the runner process sleeps on).
  const toWall = (storeMs: number) => wallMs() + (storeMs - offset.offsetMs - clock())
  const toStore = (wall: number) => wall - wallMs() + clock() + offset.offsetMs

  let stopRequested = false
  let stopRunner = () => {}
  let lastContact = wallMs()
  const heartbeat = setInterval(() => {
    store.heartbeat().then(
      ({ stop }) => {
        lastContact = wallMs()
        if (stop && !stopRequested) {
          stopRequested = true
          log(`${me}: the run was asked to stop`)
          stopRunner()
        }
      },
      (err: unknown) => {
        // Unreachable for as long as the coordinator waits before calling us lost: stop loading
        // the target, since our requests would no longer be counted.
        if (wallMs() - lastContact > spec.lostAfterMs && !stopRequested) {
          stopRequested = true
          log(`${me}: the coordination store is unreachable (${String(err)}); stopping`)
          stopRunner()
        }
      },
    )
  }, spec.heartbeatMs)

  // Rows go out in order, one at a time; a row the store refuses three times is reported, not hidden.
  let queue = Promise.resolve()
  const lost: string[] = []
  const send = (what: string, fn: () => Promise<void>) => {
    queue = queue.then(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await fn()
        } catch (err) {
          if (attempt >= ATTEMPTS) {
            lost.push(what)
            log(`${me}: could not send ${what}: ${err instanceof Error ? err.message : String(err)}`)
            return
          }
          await new Promise((r) => setTimeout(r, 200 * attempt))
        }
      }
    })
  }

  const generatorCpu: number[] = []
  let db: Db | null = null
  let end: AgentEnd
  let runId = 0
  try {
    db = openDb(ledger)
    const handle = await startRun(
      db,
      ledger,
      spec.config,
      {
        onLog: (level, message) => log(`${me} ${level}: ${message}`),
        onEncodedSecond: (s: EncodedSecond) => {
          if (s.generatorCpu !== null) generatorCpu.push(s.generatorCpu)
          send(`second ${s.t} of segment ${s.segment}`, () => store.second(s))
        },
        onEncodedSegment: (segment, summary) => {
          send(`segment ${segment.segment}`, () => store.segment({ segment, summary: slim(summary) }))
        },
        onSegmentStarted: (segment, atMs) => {
          send(`the start of segment ${segment}`, () => store.started({ segment, atMs: toStore(atMs) }))
        },
      },
      {
        agent: {
          share: { index: env.index, count: env.count },
          correlationPrefix: spec.correlationPrefix,
          barrier: async (segment) => {
            await queue // the previous segment's rows are out before we say we are ready
            await store.ready(segment)
            const release = await store.release(segment)
            if (!release || stopRequested) {
              stopRequested = true // the run stopped (or could not start) while we waited
              return null
            }
            return { atMs: toWall(release.atMs), startSecond: release.startSecond }
          },
        },
      },
    )
    runId = handle.runId
    stopRunner = () => handle.stop()
    if (stopRequested) handle.stop()
    const summary = await handle.done
    await queue
    // Its requests are rows once the ledger's blocks are expanded (a background job after the end).
    await handle.stored
    const state =
      summary.status === 'done'
        ? 'done'
        : summary.status === 'failed' || !stopRequested
          ? 'failed'
          : 'stopped'
    const rows = ledgerRowCount(db, runId)
    if (spec.raw === 'upload') {
      for (const block of readRawBlocks(db, runId)) await store.upload(block)
      log(`${me}: uploaded ${rows} raw requests`)
    }
    const errors = [summary.error, lost.length ? `could not send ${lost.join(', ')}` : null].filter(Boolean)
    end = { state, error: errors.length ? errors.join('; ') : null, generatorCpu, rows }
  } catch (err) {
    await queue
    end = { state: 'failed', error: err instanceof Error ? err.message : String(err), generatorCpu, rows: 0 }
  } finally {
    clearInterval(heartbeat)
    db?.close()
  }
  await store.finish(end)
  log(`${me}: ${end.state}${end.error ? ` (${end.error})` : ''}`)
  await store.close()
  return { ...end, spec, clock: offset, ledger, runId }
}

/** The agent's own figures for a segment; its histograms travel encoded beside it. */
function slim(summary: TargetRoundSummary): TargetRoundSummary {
  return { ...summary, histogram: '', correctedHistogram: null }
}
