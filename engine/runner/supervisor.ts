// The parent side of a run: gathers its environment, creates its rows, forks the runner process,
// and hands it to runner-child.ts, which relays its events and gives the run exactly one end
// (CONTRIBUTING.md, Process model): done, aborted (stopped, or the worker died) or failed (a disk
// that filled up). A run whose supervisor itself dies is ended by the next process to open the
// database (store/recover.ts), which is why the run records its owner.
// The run is marked ended as soon as its window is over: its ledger blocks become rows afterwards,
// in the background (ledger/expander.ts), and readers read both meanwhile.
import { fork, execFileSync, type ChildProcess } from 'node:child_process'
import { getCompileCacheDir } from 'node:module'
import { fileURLToPath } from 'node:url'
import { ApiError } from '../api/errors.ts'
import { compilePlan } from '../config/compile.ts'
import { resolveSecrets, secretLookup } from '../config/secret-vars.ts'
import type { RunConfig } from '../config/schema.ts'
import { seedSchedule } from '../config/segments.ts'
import { splitPlan } from '../config/split.ts'
import { childEnv } from '../env.ts'
import { Stacks, stackStateDir } from '../stacks/stacks.ts'
import type { Db } from '../db/db.ts'
import { ensureReserve, storageFailure } from '../store/disk.ts'
import { LedgerExpander } from '../ledger/expander.ts'
import { runRowsEnabled, startRunRows } from './run-rows.ts'
import { processStart, thisProcess } from '../store/owner.ts'
import { createRun, setWorkerPid } from '../store/runs.ts'
import { gatherEnvironment } from './environment.ts'
import type { ToRunner } from './protocol.ts'
import { ResourceRecorder } from './resource-recorder.ts'
import { RunnerChild } from './runner-child.ts'
import { NoiseMeter } from './noise-meter.ts'
import { RoundsJudge } from './rounds-judge.ts'
import type { ResourceSample } from '../monitor/types.ts'
import type { RunHandle, RunHooks, RunOptions } from './run-types.ts'

export type { AgentRunOptions, RunHandle, RunHooks, RunOptions } from './run-types.ts'

const noop = (): void => {}

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url))

/** The run's rows, written in one transaction; a full disk is named as such. */
function createRunRows(
  db: Db,
  dbPath: string,
  config: RunConfig,
  phases: string[],
  environment: Awaited<ReturnType<typeof gatherEnvironment>>,
  opts: RunOptions,
): ReturnType<typeof createRun> {
  try {
    return createRun(db, config, phases, environment, {
      owner: opts.owner ?? thisProcess(),
      allowConcurrent: opts.allowConcurrent ?? false,
      ...(opts.agent ? { correlationPrefix: opts.agent.correlationPrefix } : {}),
    })
  } catch (err) {
    const disk = storageFailure(err, dbPath)
    throw disk ? new ApiError('unavailable', `the run could not be created: ${disk}`) : err
  }
}

/** The runner process, pinned to `cpu` when asked (Linux taskset). */
function forkRunner(cpu: number | undefined, hooks: RunHooks): ChildProcess {
  // execArgv: none of the parent's loader flags (a test runner's, say); Node ≥ 22.18 strips types itself.
  // env: the runner gets the config by message and needs no secret (engine/env.ts).
  const child: ChildProcess = fork(WORKER, [], {
    execArgv: [],
    env: childEnv({
      CANNONADE_DEBUG_CPU: process.env.CANNONADE_DEBUG_CPU,
      CANNONADE_DEBUG: process.env.CANNONADE_DEBUG,
      CANNONADE_WRITER_TIMEOUT_MS: process.env.CANNONADE_WRITER_TIMEOUT_MS,
      // The command's compile cache (bin/cannonade.mjs), if it has one: the runner starts in less CPU.
      NODE_COMPILE_CACHE: getCompileCacheDir?.(),
    }),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  })
  const pid = child.pid ?? -1
  if (cpu !== undefined && pid > 0 && process.platform === 'linux') {
    try {
      execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], {
        stdio: 'ignore',
        timeout: 5000,
      })
    } catch {
      hooks.onLog?.('warn', `could not pin the runner to CPU ${cpu} (is taskset installed?)`)
    }
  }
  return child
}

/**
 * The noise meter of a run: a monitor's samples count as this host's own (subtracted from "other
 * processes") when its source is a process, or a container of the local Docker engine.
 */
function noiseMeter(runnerPid: number, config: RunConfig, dockerHost: string | undefined): NoiseMeter {
  const remoteDocker = dockerHost !== undefined && dockerHost !== '' && !dockerHost.startsWith('unix:')
  return new NoiseMeter({
    runnerPid,
    targets: config.targets.map((t) => t.name),
    local: (s) => s.source === 'process' || (s.source === 'docker' && !remoteDocker),
  })
}

/** Start a run; resolves once its rows exist and the runner process is forked. */
export async function startRun(
  db: Db,
  dbPath: string,
  config: RunConfig,
  hooks: RunHooks = {},
  opts: RunOptions = {},
): Promise<RunHandle> {
  // A randomized schedule without a seed gets one now: stored with the run, sent to the runner.
  config = seedSchedule(config)
  // The runner's copy has the targets' secret values in it; what is stored keeps the `${name}`s.
  const sendable = resolveSecrets(config, secretLookup(opts.secrets))
  const whole = compilePlan(config.load)
  const plan = opts.agent ? splitPlan(whole, config.load, opts.agent.share) : whole
  // Monitors and the environment record find a `stack:` in this data folder's stacks.
  const stacks = new Stacks({ stateDir: stackStateDir(dbPath), dockerHost: () => opts.dockerHost })
  // Asking docker about the targets is asynchronous and happens before the rows' transaction.
  const environment = await gatherEnvironment(
    config,
    opts.cpu !== undefined ? { generatorCpu: opts.cpu } : {},
    stacks,
    opts.dockerHost,
  )
  // A few MB kept back, so that a run that fills the disk can still write its end.
  ensureReserve(dbPath)
  const { runId, prefix } = createRunRows(db, dbPath, config, plan.phases, environment, opts)
  const child = forkRunner(opts.cpu, hooks)
  const pid = child.pid ?? -1
  if (pid > 0) setWorkerPid(db, runId, { pid, start: processStart(pid) })
  // The targets' own CPU and memory, on the run's timeline, from the moment the runner exists.
  // What else ran beside each segment, and the rounds' decisions: the run's own, not an agent's share.
  const meter = opts.agent ? null : noiseMeter(pid, config, opts.dockerHost)
  const resources = new ResourceRecorder(db, runId, config, {
    secrets: opts.secrets,
    stacks,
    dockerHost: opts.dockerHost,
    secretsDir: opts.secretsDir,
    onLog: (level, message) => hooks.onLog?.(level, message),
    onWarning: (warning) => hooks.onWarning?.({ type: 'warning', runId, warning }),
    ...(meter ? { onSample: (s: ResourceSample) => meter.resource(s) } : {}),
  })
  resources.start()
  const judge = opts.agent ? null : new RoundsJudge(db, runId, config)
  const runner = new RunnerChild({ child, db, dbPath, runId, config, hooks, opts, resources, meter, judge })
  child.send({
    type: 'start',
    runId,
    dbPath,
    config: sendable,
    plan,
    correlationPrefix: prefix,
    heartbeatMs: runner.tickMs,
    ...(opts.agent ? { agent: { share: opts.agent.share } } : {}),
  } satisfies ToRunner)
  // The blocks become rows while the run goes on, on the pinned generator's idle cycles
  // (run-rows.ts), and what is left once it has ended (whatever its end); failures leave
  // them readable.
  const expander = opts.expander ?? new LedgerExpander(db)
  const during =
    opts.cpu !== undefined && !opts.keepBlocks && dbPath !== ':memory:' && runRowsEnabled()
      ? startRunRows(dbPath, runId, opts.cpu, { waitForSummary: config.load.warmup === 'auto' })
      : null
  const ended = during ? runner.done.finally(() => during.stop()) : runner.done
  return {
    runId,
    correlationPrefix: prefix,
    pid,
    stop: () => runner.stop(),
    kill: (signal) => runner.kill(signal),
    done: runner.done,
    stored: opts.keepBlocks ? runner.done.then(noop, noop) : expander.afterEnd(ended),
  }
}
