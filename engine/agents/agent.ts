// One load agent (`cannonade agent`): joins its run once, measures its clock against the store's,
// heartbeats, runs its share of the load in a runner process (engine/runner/, the same one a plain
// run uses) with a barrier before every segment, sends each second and segment as encoded
// statistics, keeps its raw ledger in a local SQLite file (uploaded after the load only when the
// run asks), says how it ended, and exits. No restart logic: a restarted agent is refused at join.
import { join } from 'node:path'
import type { TargetRoundSummary } from '../api/types.ts'
import { startRun } from '../runner/supervisor.ts'
import { privateDir } from '../paths.ts'
import { openDb, type Db } from '../db/db.ts'
import { readRawBlocks } from '../store/agents.ts'
import { ledgerRowCount } from '../ledger/samples-read.ts'
import { AgentLink } from './agent-link.ts'
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

/** Joins the run, measures the clock, and hears the store: what comes before the load. */
async function joinRun(
  o: AgentOptions,
  me: string,
  ledger: string,
): Promise<{ spec: RunSpec; link: AgentLink; offset: ClockOffset }> {
  const { env, store } = o
  const clock = o.clock ?? wallMs
  const log = o.log ?? (() => {})
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
  return { spec, offset, link: new AgentLink({ store, spec, offset, clock, log, me }) }
}

/** What runShare works with: the run's spec, the link to the store, the local ledger. */
interface Share {
  spec: RunSpec
  link: AgentLink
  db: Db
  ledger: string
  me: string
  /** The load thread's CPU per second, as reported. */
  generatorCpu: number[]
}

/** The agent's share of the load in a runner process, each second and segment sent as it comes. */
function startShare(o: AgentOptions, { spec, link, db, ledger, me, generatorCpu }: Share) {
  const { env, store } = o
  const log = o.log ?? (() => {})
  return startRun(
    db,
    ledger,
    spec.config,
    {
      onLog: (level, message) => log(`${me} ${level}: ${message}`),
      onEncodedSecond: (s: EncodedSecond) => {
        if (s.generatorCpu !== null) generatorCpu.push(s.generatorCpu)
        link.send(`second ${s.t} of segment ${s.segment}`, () => store.second(s))
      },
      onEncodedSegment: (segment, summary) => {
        link.send(`segment ${segment.segment}`, () => store.segment({ segment, summary: slim(summary) }))
      },
      onSegmentStarted: (segment, atMs) => {
        link.send(`the start of segment ${segment}`, () =>
          store.started({ segment, atMs: link.toStore(atMs) }),
        )
      },
    },
    {
      agent: {
        share: { index: env.index, count: env.count },
        correlationPrefix: spec.correlationPrefix,
        barrier: async (segment) => {
          await link.sent() // the previous segment's rows are out before we say we are ready
          await store.ready(segment)
          const release = await store.release(segment)
          if (!release || link.stopped) {
            link.markStopped() // the run stopped (or could not start) while we waited
            return null
          }
          return { atMs: link.toWall(release.atMs), startSecond: release.startSecond }
        },
      },
      // An agent that uploads sends its ledger's blocks as they are: expanding them here first
      // would only delay the run's complete file. One that keeps its ledger makes it rows.
      keepBlocks: spec.raw === 'upload',
    },
  )
}

/** Run the share to its end; with `raw: upload`, the ledger goes to the store afterwards. */
async function runShare(o: AgentOptions, share: Share): Promise<{ end: AgentEnd; runId: number }> {
  const { spec, link, db, me, generatorCpu } = share
  const log = o.log ?? (() => {})
  const handle = await startShare(o, share)
  link.whenStopped(() => handle.stop())
  const summary = await handle.done
  await link.sent()
  // Kept: its requests are rows once the ledger's blocks are expanded (after the end).
  await handle.stored
  const state =
    summary.status === 'done' ? 'done' : summary.status === 'failed' || !link.stopped ? 'failed' : 'stopped'
  const rows = ledgerRowCount(db, handle.runId)
  if (spec.raw === 'upload') {
    for (const block of readRawBlocks(db, handle.runId)) await o.store.upload(block)
    log(`${me}: uploaded ${rows} raw requests`)
  }
  const errors = [summary.error, link.lost.length ? `could not send ${link.lost.join(', ')}` : null].filter(
    Boolean,
  )
  const end: AgentEnd = { state, error: errors.length ? errors.join('; ') : null, generatorCpu, rows }
  return { end, runId: handle.runId }
}

export async function runAgent(o: AgentOptions): Promise<AgentResult> {
  const { env, store } = o
  const log = o.log ?? (() => {})
  const me = `agent ${env.index}/${env.count}`
  privateDir(env.dataDir)
  const ledger = join(env.dataDir, 'ledger.db')
  const { spec, link, offset } = await joinRun(o, me, ledger)
  const generatorCpu: number[] = []
  let db: Db | null = null
  let end: AgentEnd
  let runId = 0
  try {
    db = openDb(ledger)
    ;({ end, runId } = await runShare(o, { spec, link, db, ledger, me, generatorCpu }))
  } catch (err) {
    await link.sent()
    end = { state: 'failed', error: err instanceof Error ? err.message : String(err), generatorCpu, rows: 0 }
  } finally {
    link.close()
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
