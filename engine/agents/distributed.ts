// A run made by load agents, seen from the engine that starts it: the run's rows in the app's
// database, the coordination store (embedded for local agents, PostgreSQL otherwise) and the
// launcher, chosen here; the coordinator, the targets' monitors and exactly one end in
// agents-run.ts. It answers like a run of one process (runner/supervisor.ts's RunHandle), so the
// host, the CLI and the UI treat it alike.
import { randomBytes } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { ApiError } from '../api/errors.ts'
import { compilePlan } from '../config/compile.ts'
import { seedSchedule } from '../config/segments.ts'
import type { AgentsConfig, RunConfig } from '../config/schema.ts'
import type { StackLocator } from '../monitor/index.ts'
import { gatherEnvironment } from '../runner/environment.ts'
import type { RunHandle, RunHooks, RunOptions } from '../runner/supervisor.ts'
import type { Db } from '../db/db.ts'
import { LedgerExpander } from '../ledger/expander.ts'
import { thisProcess } from '../store/owner.ts'
import { createRun } from '../store/runs.ts'
import { pgUrlParts } from '../config/url-secrets.ts'
import { redactUrl } from '../config/redact.ts'
import { AgentsRun, type PreparedRun } from './agents-run.ts'
import { MemoryStore } from './coordination/memory.ts'
import type { CoordinatorStore, RunSpec } from './coordination/protocol.ts'
import { createLauncher } from './launchers/index.ts'
import type { Launcher } from './launchers/launcher.ts'
import { canPin } from './launchers/local.ts'

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
  // Checked before anything is created: a bad URL is the variable's fault, said so, and no run is left.
  if (!/^postgres(ql)?:\/\//i.test(storeUrl) || pgUrlParts(storeUrl) === null)
    throw new ApiError(
      'bad-input',
      `CANNONADE_STORE_URL is not a PostgreSQL URL (postgres://user@host:5432/database): ${redactUrl(storeUrl)}`,
      'CANNONADE_STORE_URL',
    )
  const { PgCoordinatorStore } = await import('./coordination/pg-coordinator.ts')
  return new PgCoordinatorStore(storeUrl)
}

/** The config the agents run: the targets' monitors stay with the coordinator (sampled once). */
function agentConfig(config: RunConfig): RunConfig {
  return { ...config, targets: config.targets.map(({ monitor: _monitor, ...t }) => t) }
}

/** Agents a config without an `agents` block gets: one local agent (tests start runs this way). */
const ONE_LOCAL: AgentsConfig = {
  count: 1,
  on: 'local',
  raw: 'upload',
  barrierTimeoutSeconds: 60,
  lostAfterSeconds: 10,
}

/** The run's rows, its coordination store and launcher, before anything is started. */
async function prepare(
  db: Db,
  config: RunConfig,
  hooks: RunHooks,
  opts: DistributedOptions,
): Promise<PreparedRun> {
  const agents = config.agents ?? ONE_LOCAL
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
  const environment = await gatherEnvironment(config, {
    agents: count,
    on: agents.on,
    ...(cpus ? { agentCpus: cpus } : {}),
  })
  // Its owner is this process (the coordinator): a crash of it leaves the run to be recovered
  // (store/recover.ts) like any run's; a run already going on this database refuses it.
  const { runId, prefix } = createRun(db, config, compilePlan(config.load).phases, environment, {
    owner: opts.owner ?? thisProcess(),
    allowConcurrent: opts.allowConcurrent ?? false,
  })
  if (agents.on === 'local' && !cpus) {
    hooks.onLog?.(
      pin ? 'info' : 'warn',
      pin
        ? `${count} agents on ${availableParallelism()} CPUs: agents are not pinned`
        : 'agents are not pinned to cores (no taskset here)',
    )
  }
  const spec: RunSpec = {
    runKey,
    agents: count,
    config: agentConfig(config),
    correlationPrefix: prefix,
    heartbeatMs: HEARTBEAT_MS,
    lostAfterMs: agents.lostAfterSeconds * 1000,
    raw: agents.raw,
  }
  return {
    db,
    config,
    agents,
    runId,
    prefix,
    spec,
    store,
    launcher,
    hooks,
    ...(opts.secrets ? { secrets: opts.secrets } : {}),
    ...(opts.stacks ? { stacks: opts.stacks } : {}),
    ...(opts.dockerHost ? { dockerHost: opts.dockerHost } : {}),
    ...(opts.secretsDir ? { secretsDir: opts.secretsDir } : {}),
    ...(opts.storeUrl ? { storeUrl: opts.storeUrl } : {}),
  }
}

/** Start a run of load agents; resolves once its rows exist and its agents are being started. */
export async function startDistributedRun(
  db: Db,
  config: RunConfig,
  hooks: RunHooks,
  opts: DistributedOptions,
): Promise<RunHandle> {
  // Every agent draws a randomized schedule's order from this one seed (config/segments.ts).
  const prepared = await prepare(db, seedSchedule(config), hooks, opts)
  const run = new AgentsRun(prepared)
  await run.launch()
  // Uploaded raw blocks become samples rows once the run has ended, in the background.
  const expander = opts.expander ?? new LedgerExpander(db)
  return {
    runId: prepared.runId,
    correlationPrefix: prepared.prefix,
    pid: process.pid,
    stop: () => run.stop(),
    kill: () => run.kill(),
    done: run.done,
    stored: expander.afterEnd(run.done),
  }
}
