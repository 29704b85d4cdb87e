// The engine host's `runs` operations: starting a run (its stacks started or restarted first, its
// preflight, a sweep handed to host/studies.ts), stopping, listing, reading, deleting and pruning.
import type { Api } from '../api/api.ts'
import { ApiError } from '../api/errors.ts'
import { parseArgs } from '../api/schemas.ts'
import type {
  AgentsEvent,
  Distribution,
  ProgressEvent,
  RunEndedEvent,
  StackLogEvent,
  ValidationResult,
} from '../api/types.ts'
import { agentsDataDir, removeLocalLedgers } from '../agents/ledgers.ts'
import { launchRun, type LaunchOptions } from '../agents/launch-run.ts'
import { ConfigError } from '../config/errors.ts'
import { parseRunConfig } from '../config/load.ts'
import { preflight } from '../config/preflight.ts'
import { resolveSecrets, secretLookup } from '../config/secret-vars.ts'
import type { RunConfig } from '../config/schema.ts'
import { restartWarmupSeconds, warmedUp } from '../config/sweep.ts'
import { compareRuns } from '../metrics/compare.ts'
import { distributions } from '../metrics/distribution.ts'
import type { RunHandle, RunHooks } from '../runner/supervisor.ts'
import { machineLoad } from '../monitor/machine.ts'
import { ensureStacks, sweptTargets } from '../stacks/policy.ts'
import type { Stacks } from '../stacks/stacks.ts'
import type { Db } from '../db/db.ts'
import { ledgerInfo, pruneLedger } from '../store/retention.ts'
import type { HistoryStore } from '../store/history-store.ts'
import type { HostBus } from './bus.ts'
import type { RunLogEvent } from './local-capabilities.ts'
import type { HostStudies } from './studies.ts'

export interface RunsDeps {
  db: Db
  dbPath: string
  history: HistoryStore
  bus: HostBus
  active: Map<number, RunHandle>
  stacks: Stacks
  studies: HostStudies
  runOptions: () => LaunchOptions
  /** Throws when the database was opened read-only. */
  writable: () => void
  /** Applies the ledger retention setting (after each run). */
  retention: () => void
}

function toApiError(err: unknown): never {
  if (err instanceof ApiError) throw err
  if (err instanceof ConfigError) throw new ApiError('bad-input', err.message, err.field)
  throw err
}

function validate(config: unknown): ValidationResult {
  try {
    return { ok: true, issues: [], config: parseRunConfig(config) }
  } catch (err) {
    if (err instanceof ConfigError) return { ok: false, issues: [...err.issues], config: null }
    throw err
  }
}

/** A config as a run starts it: its stacks started first, a warm-up when they were, its preflight. */
async function prepare(d: RunsDeps, raw: unknown): Promise<RunConfig> {
  const { bus } = d.bus
  let config = parseRunConfig(raw)
  // A secret the steps use but the environment lacks is bad input now, before a stack or run starts.
  resolveSecrets(config, secretLookup(d.runOptions().secrets))
  const say = (stack: string, line: string) => {
    bus.emit('stack-log', { type: 'stack-log', stack, line } satisfies StackLogEvent)
    bus.emit('run-log', {
      type: 'run-log',
      level: 'info',
      message: `stack ${stack} is ${line}`,
    } satisfies RunLogEvent)
  }
  // A stack just (re)started for this run is cold: the run opens with a stated warm-up, unless its
  // config has one of its own or says `load.warmupSeconds: 0`.
  const warmup = restartWarmupSeconds(config, raw)
  if ((await ensureStacks(d.stacks, config, say)).length > 0 && warmup > 0) {
    config = warmedUp(config, warmup)
    bus.emit('run-log', {
      type: 'run-log',
      level: 'info',
      message: `the run opens with ${warmup} s of warm-up (recorded, left out of its figures): its stack was just started`,
    } satisfies RunLogEvent)
  }
  // Targets whose stack a sweep restarts are checked when it has (its health check).
  const swept = sweptTargets(config)
  await preflight({ targets: config.targets.filter((_, i) => !swept.has(i)) })
  return config
}

/** What a run tells the host as it goes: its events on the bus, and its end. */
function hooksFor(d: RunsDeps): RunHooks {
  const { bus, log } = d.bus
  return {
    onProgress: (e: ProgressEvent) => bus.emit('progress', e),
    onAgents: (e: AgentsEvent) => bus.emit('agents', e),
    onLog: log,
    onWarning: (e) => bus.emit('warning', e),
    onEnded: (e: RunEndedEvent) => {
      d.active.delete(e.runId)
      d.retention()
      bus.emit('ended', e)
    },
  }
}

/** `runs:start`: a run (or a sweep's study) from a config, once its stacks and preflight are done. */
async function start(d: RunsDeps, raw: unknown, o: unknown): Promise<{ runId: number; studyId?: number }> {
  d.writable()
  const [, parsed] = parseArgs('runs:start', [raw, o])
  const allowConcurrent = parsed?.allowConcurrent ?? false
  let config: RunConfig
  try {
    config = await prepare(d, raw)
  } catch (err) {
    toApiError(err)
  }
  const hooks = hooksFor(d)
  if (config.sweep) return d.studies.start(config, hooks, allowConcurrent)
  const handle = await launchRun(d.db, d.dbPath, config, hooks, { ...d.runOptions(), allowConcurrent })
  d.active.set(handle.runId, handle)
  // A run whose ending failed still ends once for whoever waits on it.
  handle.done.catch((err: unknown) => {
    if (!d.active.delete(handle.runId)) return
    const error = err instanceof Error ? err.message : String(err)
    d.bus.bus.emit('ended', {
      type: 'ended',
      runId: handle.runId,
      status: 'failed',
      error,
    } satisfies RunEndedEvent)
  })
  return { runId: handle.runId }
}

export function runsApi(d: RunsDeps): Api['runs'] {
  const { db, history, active, writable } = d
  const { subscribe } = d.bus
  return {
    async validate(config) {
      return validate(config)
    },
    start: (raw, o) => start(d, raw, o),
    async stop(runId) {
      const run = active.get(parseArgs('runs:stop', [runId])[0])
      if (!run) throw new ApiError('not-found', `run ${runId} is not running`)
      run.stop()
    },
    async active() {
      return [...active.keys()]
    },
    machine: () => machineLoad(),
    async list(query) {
      return history.listRuns(parseArgs('runs:list', [query])[0])
    },
    async get(runId) {
      return history.getRun(runId)
    },
    async series(runId, o) {
      return history.series(runId, o)
    },
    async resources(runId) {
      return history.resources(runId)
    },
    async distribution(runId) {
      const [id] = parseArgs('runs:distribution', [runId])
      return distributions(history.getRun(id).results).map(({ stats: _, ...curve }) => curve)
    },
    async samples(runId, query) {
      return history.samples(runId, parseArgs('runs:samples', [runId, query])[1])
    },
    async compare(query) {
      const [q] = parseArgs('runs:compare', [query])
      const { runIds, ...opts } = q
      return compareRuns(history.compareRounds(runIds), opts)
    },
    async delete(runId) {
      writable()
      if (active.has(runId)) throw new ApiError('conflict', `run ${runId} is still running; stop it first`)
      // A run whose rows no longer parse may still be deleted; its agents' ledgers then stay.
      let distribution: Distribution | null = null
      try {
        distribution = history.getRun(runId).distribution
      } catch {
        distribution = null
      }
      history.deleteRun(runId)
      removeLocalLedgers(distribution, agentsDataDir(d.dbPath))
    },
    async tag(runId, tags) {
      writable()
      history.tag(runId, tags)
    },
    async note(runId, note) {
      writable()
      history.note(runId, note)
    },
    async ledger(runId) {
      return ledgerInfo(db, parseArgs('runs:ledger', [runId])[0])
    },
    async prune(runId) {
      const [id] = parseArgs('runs:prune', [runId])
      writable()
      if (active.has(id)) throw new ApiError('conflict', `run ${id} is still running`)
      return pruneLedger(db, id)
    },
    onProgress: (cb) => subscribe('progress', cb),
    onEnded: (cb) => subscribe('ended', cb),
    onWarning: (cb) => subscribe('warning', cb),
    onAgents: (cb) => subscribe('agents', cb),
  }
}
