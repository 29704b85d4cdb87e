// A run made by load agents, seen from the engine that starts it: the run's rows in the app's
// database, the coordination store (embedded for local agents, PostgreSQL otherwise), the
// launcher, the coordinator, the targets' monitors, and exactly one end. It answers like a run of
// one process (runner/supervisor.ts's RunHandle), so the host, the CLI and the UI treat it alike.
import { randomBytes } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { ApiError } from '../api/errors.ts'
import type { RunEndedEvent, RunSummary } from '../api/types.ts'
import { compilePlan } from '../config/compile.ts'
import type { AgentsConfig, RunConfig } from '../config/schema.ts'
import { gatherEnvironment } from '../runner/environment.ts'
import { ResourceRecorder } from '../runner/resources.ts'
import type { StackLocator } from '../monitor/index.ts'
import type { RunHandle, RunHooks, RunOptions } from '../runner/supervisor.ts'
import { insertRawBlocks } from '../store/agents.ts'
import type { Db } from '../store/db.ts'
import { LedgerWriter } from '../store/ledger-writer.ts'
import { HistoryStore } from '../store/queries.ts'
import { createRun, finishRun } from '../store/runs.ts'
import { LedgerExpander } from '../store/expander.ts'
import { thisProcess } from '../store/owner.ts'
import { measureOffset } from './coordination/clock.ts'
import { Coordinator } from './coordination/coordinator.ts'
import { agentEnv } from './env.ts'
import { finishDistributed } from './merge/finish.ts'
import type { Launcher } from './launchers/launcher.ts'
import { canPin } from './launchers/local.ts'
import { createLauncher } from './launchers/index.ts'
import { MemoryStore, wallMs } from './coordination/memory.ts'
import type { CoordinatorStore, RunSpec } from './coordination/protocol.ts'

export const HEARTBEAT_MS = 1000

export interface DistributedOptions extends RunOptions {
  /** Where local agents keep their raw ledgers (<run key>/agent-<i>/ under it). */
  agentDataDir: string
  /** The PostgreSQL coordination store for agents that are not local processes (CANNONADE_STORE_URL). */
  storeUrl?: string
  /** Tests: a store and a launcher of their own instead of the ones `agents.on` names. */
  store?: CoordinatorStore
  launcher?: (ctx: { store: CoordinatorStore; cpus: number[] | undefined }) => Launcher
  /** The stacks of the run's data folder, for monitors that name a `stack` (as a single process's run). */
  stacks?: StackLocator
}

/** Agent i's core: --cpu N pins agents to N, N+1, …; without it agents get 0, 1, … when they fit. */
export function agentCpus(
  count: number,
  cpu: number | undefined,
  cores = availableParallelism(),
): number[] | undefined {
  if (cpu === undefined) return count <= cores ? Array.from({ length: count }, (_, i) => i) : undefined
  if (cpu + count > cores) {
    throw new ApiError(
      'bad-input',
      `--cpu ${cpu} with ${count} agents needs CPUs ${cpu}–${cpu + count - 1}; this machine has ${cores} (0–${cores - 1})`,
      'cpu',
    )
  }
  return Array.from({ length: count }, (_, i) => cpu + i)
}

/** Local agents coordinate through this process's memory; any others through PostgreSQL. */
async function coordinationStore(
  agents: AgentsConfig,
  storeUrl: string | undefined,
): Promise<CoordinatorStore> {
  if (agents.on === 'local') return new MemoryStore()
  if (!storeUrl) {
    throw new ApiError(
      'bad-input',
      `agents.on ${agents.on}: set CANNONADE_STORE_URL to a PostgreSQL database the agents can reach (their coordination store)`,
      'agents.on',
    )
  }
  const { PgCoordinatorStore } = await import('./coordination/pg-coordinator.ts')
  return new PgCoordinatorStore(storeUrl)
}

/** The config the agents run: the targets' monitors stay with the coordinator (sampled once). */
function agentConfig(config: RunConfig): RunConfig {
  return { ...config, targets: config.targets.map(({ monitor: _monitor, ...t }) => t) }
}

export async function startDistributedRun(
  db: Db,
  config: RunConfig,
  hooks: RunHooks,
  opts: DistributedOptions,
): Promise<RunHandle> {
  const agents: AgentsConfig = config.agents ?? {
    count: 1,
    on: 'local',
    raw: 'keep',
    barrierTimeoutSeconds: 60,
    lostAfterSeconds: 10,
  }
  const count = agents.count
  const pin = agents.on === 'local' && canPin()
  const cpus = pin ? agentCpus(count, opts.cpu) : undefined
  const store = opts.store ?? (await coordinationStore(agents, opts.storeUrl))
  const runKey = randomBytes(8).toString('hex')
  const launcher: Launcher = opts.launcher
    ? opts.launcher({ store, cpus })
    : createLauncher(agents.on, {
        store,
        cpus,
        dataDir: join(opts.agentDataDir, runKey),
        storeUrl: opts.storeUrl,
      })

  const plan = compilePlan(config.load)
  const environment = await gatherEnvironment(config, {
    agents: count,
    on: agents.on,
    ...(cpus ? { agentCpus: cpus } : {}),
  })
  // Its owner is this process (the coordinator): a crash of it leaves the run to be recovered
  // (store/recover.ts) like any run's; a run already going on this database refuses it.
  const { runId, prefix } = createRun(db, config, plan.phases, environment, {
    owner: opts.owner ?? thisProcess(),
    allowConcurrent: opts.allowConcurrent ?? false,
  })
  const spec: RunSpec = {
    runKey,
    agents: count,
    config: agentConfig(config),
    correlationPrefix: prefix,
    heartbeatMs: HEARTBEAT_MS,
    lostAfterMs: agents.lostAfterSeconds * 1000,
    raw: agents.raw,
  }
  const log = (level: 'info' | 'warn' | 'error', message: string) => hooks.onLog?.(level, message)
  if (agents.on === 'local' && !cpus) {
    log(
      pin ? 'info' : 'warn',
      pin
        ? `${count} agents on ${availableParallelism()} CPUs: agents are not pinned`
        : 'agents are not pinned to cores (no taskset here)',
    )
  }

  const resources = new ResourceRecorder(db, runId, config, {
    secrets: opts.secrets,
    ...(opts.stacks ? { stacks: opts.stacks } : {}),
    onLog: log,
  })
  const writer = new LedgerWriter(db, runId)
  let uploaded = 0
  // The store's clock against ours: its instants (releases, heartbeats) map onto this machine's.
  let offsetMs = 0
  let t0Local = 0
  const coordinator = new Coordinator({
    runId,
    config,
    agents: count,
    store,
    lostAfterMs: spec.lostAfterMs,
    barrierTimeoutMs: agents.barrierTimeoutSeconds * 1000,
    hooks: {
      onStarted: (t0Store) => {
        t0Local = t0Store - offsetMs
        resources.setT0(t0Local)
        hooks.onStarted?.({ runId, t0Epoch: t0Local, pid: process.pid })
      },
      onSecond: (seg, m, event) => {
        writer.insertSeries(m.point, seg.targetIndex, m.phase, m.statusJson, m.point.agents ?? null)
        for (const a of event.agents ?? []) {
          resources.record({
            t: t0Local + (m.point.t + 1) * 1000,
            source: 'generator',
            target: 'generator',
            instance: `agent-${a.index}`,
            cpuPercent: a.generatorCpu,
            memoryBytes: null,
            memoryLimitBytes: null,
            cpuLimit: null,
            state: a.state,
          })
        }
        hooks.onProgress?.({ ...event, resources: resources.drain() })
      },
      onSegment: (seg, summary) => {
        writer.writeSummary(seg.targetIndex, summary)
        hooks.onSegment?.(summary)
      },
      onBlocks: (blocks) => {
        uploaded += insertRawBlocks(db, runId, blocks)
      },
      onLog: log,
      onAgents: (agents, waiting) => hooks.onAgents?.({ type: 'agents', runId, agents, waiting }),
    },
  })
  launcher.follow((e) => {
    coordinator.onLauncherEvent(e)
    if (e.type === 'log')
      log(
        'info',
        e.index === null ? e.line : `agent ${e.index}: ${e.line.replace(/^agent \d+\/\d+:? ?/, '')}`,
      )
  })

  let resolveDone: (s: RunSummary) => void = () => {}
  let rejectDone: (e: Error) => void = () => {}
  const done = new Promise<RunSummary>((res, rej) => {
    resolveDone = res
    rejectDone = rej
  })
  let killed = false

  const finish = async () => {
    let ended: RunEndedEvent
    try {
      const outcome = await coordinator.run()
      await launcher.stop({ kill: killed })
      await resources.stop()
      const end = await finishDistributed({
        db,
        runId,
        config,
        agents: count,
        store,
        outcome,
        launcher: launcher.kind,
        heartbeatMs: spec.heartbeatMs,
        lostAfterMs: spec.lostAfterMs,
        raw: spec.raw,
      })
      if (uploaded > 0) log('info', `${uploaded} raw requests uploaded by the agents`)
      ended = { type: 'ended', runId, status: end.status, error: end.error }
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err)
      await launcher.stop({ kill: true }).catch(() => {})
      await resources.stop().catch(() => {})
      finishRun(db, runId, 'failed', { error })
      ended = { type: 'ended', runId, status: 'failed', error }
    }
    await store
      .close({ purge: true })
      .catch((err: unknown) => log('warn', `coordination store: ${String(err)}`))
    hooks.onEnded?.(ended)
    resolveDone(new HistoryStore(db).getRun(runId))
  }

  log(
    'info',
    `run ${runId}: ${count} agents (${launcher.kind}) join with CANNONADE_RUN=${runKey} CANNONADE_AGENT_COUNT=${count}`,
  )
  try {
    await store.open(spec)
    if (store.kind === 'postgres') offsetMs = (await measureOffset(() => store.now(), wallMs)).offsetMs
    resources.start()
    await launcher.start(agentEnv({ runKey, count }), count)
  } catch (err) {
    await launcher.stop({ kill: true }).catch(() => {})
    await resources.stop()
    await store.close({ purge: true }).catch(() => {})
    finishRun(db, runId, 'failed', { error: err instanceof Error ? err.message : String(err) })
    throw err
  }
  finish().catch((err: unknown) => rejectDone(err instanceof Error ? err : new Error(String(err))))

  // Uploaded raw blocks become samples rows once the run has ended, in the background.
  const expander = opts.expander ?? new LedgerExpander(db)
  const stored = expander.afterEnd(done)

  return {
    runId,
    correlationPrefix: prefix,
    pid: process.pid,
    stop: () => coordinator.stop(),
    kill: () => {
      killed = true
      coordinator.stop()
      void launcher.stop({ kill: true })
    },
    done,
    stored,
  }
}
