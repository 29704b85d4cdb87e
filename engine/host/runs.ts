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
import { launchRun, type LaunchOptions } from '../agents/start.ts'
import { ConfigError } from '../config/errors.ts'
import { parseRunConfig } from '../config/load.ts'
import { connectProblem, preflight } from '../config/preflight.ts'
import type { RunConfig } from '../config/schema.ts'
import {
  changesStack,
  DEFAULT_RESTART_WARMUP_SECONDS,
  hasWarmup,
  stackPort,
  warmedUp,
} from '../config/sweep.ts'
import { compareRuns } from '../metrics/compare.ts'
import { distributions } from '../metrics/distribution.ts'
import type { RunHandle, RunHooks } from '../runner/supervisor.ts'
import type { Stacks } from '../stacks/stacks.ts'
import type { Db } from '../store/db.ts'
import { ledgerInfo, pruneLedger } from '../store/ledger.ts'
import type { HistoryStore } from '../store/queries.ts'
import type { HostBus } from './bus.ts'
import type { RunLogEvent } from './local.ts'
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

/** The targets whose stack a sweep restarts (or moves) for its values. */
function sweptTargets(config: RunConfig): Set<number> {
  const out = new Set<number>()
  const paths = config.sweep ? [config.sweep.path, ...(config.sweep.by ? [config.sweep.by.path] : [])] : []
  for (const path of paths) {
    if (!changesStack(path)) continue
    const which = path.split('.')[1]!
    if (which === '*') config.targets.forEach((t, i) => t.stack && out.add(i))
    else out.add(Number(which))
  }
  return out
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

export function runsApi(d: RunsDeps): Api['runs'] {
  const { db, history, active, stacks, writable, retention } = d
  const { bus, subscribe, log } = d.bus

  /**
   * A target that names a bundled stack which is not running: start it before the preflight (and
   * say so), instead of failing with "cannot connect"; one running with other settings than the
   * target's `stack:` gives (its env, replicas) is restarted with them. Stacks a sweep restarts are
   * left to it.
   */
  const ensureStacks = async (config: RunConfig): Promise<string[]> => {
    const swept = sweptTargets(config)
    const started: string[] = []
    for (const [i, t] of config.targets.entries()) {
      const s = t.stack
      if (!s || swept.has(i) || started.includes(s.name)) continue
      const now = await stacks.snapshot(s.name)
      const differs = Object.entries(s.env).filter(([k, v]) => now.env[k] !== String(v))
      let line: string
      if (now.running) {
        if (now.native !== s.native || (differs.length === 0 && now.replicas === s.replicas)) continue
        if (now.native) continue // a native stack's settings are its own: measured as it runs
        line = `running with ${differs.map(([k]) => `${k}=${now.env[k] ?? '(default)'}`).join(', ') || `${now.replicas} replicas`}: restarting it with ${differs.map(([k, v]) => `${k}=${v}`).join(', ') || `${s.replicas} replicas`} as targets.${i}.stack says`
      } else {
        // Not started from here, but something answers at the target's URL (a stack started by
        // hand, another data folder's): measure that, as the config says.
        if ((await connectProblem(t.url, 1000)) === null) continue
        line = `not running: starting it for this run (targets.${i}.stack of "${config.name}")`
      }
      bus.emit('stack-log', { type: 'stack-log', stack: s.name, line } satisfies StackLogEvent)
      bus.emit('run-log', {
        type: 'run-log',
        level: 'info',
        message: `stack ${s.name} is ${line}`,
      } satisfies RunLogEvent)
      const port = stackPort(t.url)
      await stacks.up(s.name, {
        build: !now.running,
        native: s.native,
        env: s.env,
        replicas: s.replicas,
        ...(port !== null ? { port } : {}),
      })
      started.push(s.name)
    }
    return started
  }

  return {
    async validate(config) {
      return validate(config)
    },
    async start(raw, o) {
      writable()
      const [, parsed] = parseArgs('runs:start', [raw, o])
      const allowConcurrent = parsed?.allowConcurrent ?? false
      let config
      try {
        config = parseRunConfig(raw)
        // A stack just (re)started for this run is cold: the run opens with a stated warm-up,
        // unless its config has one of its own.
        if ((await ensureStacks(config)).length > 0 && !hasWarmup(config)) {
          config = warmedUp(config, DEFAULT_RESTART_WARMUP_SECONDS)
          bus.emit('run-log', {
            type: 'run-log',
            level: 'info',
            message: `the run opens with ${DEFAULT_RESTART_WARMUP_SECONDS} s of warm-up (recorded, left out of its figures): its stack was just started`,
          } satisfies RunLogEvent)
        }
        // Targets whose stack a sweep restarts are checked when it has (its health check).
        const swept = sweptTargets(config)
        await preflight({ targets: config.targets.filter((_, i) => !swept.has(i)) })
      } catch (err) {
        toApiError(err)
      }
      const hooks: RunHooks = {
        onProgress: (e: ProgressEvent) => bus.emit('progress', e),
        onAgents: (e: AgentsEvent) => bus.emit('agents', e),
        onLog: log,
        onWarning: (e) => bus.emit('warning', e),
        onEnded: (e: RunEndedEvent) => {
          active.delete(e.runId)
          retention()
          bus.emit('ended', e)
        },
      }
      if (config.sweep) return d.studies.start(config, hooks, allowConcurrent)
      const handle = await launchRun(db, d.dbPath, config, hooks, { ...d.runOptions(), allowConcurrent })
      active.set(handle.runId, handle)
      // A run whose ending failed still ends once for whoever waits on it.
      handle.done.catch((err: unknown) => {
        if (!active.delete(handle.runId)) return
        const error = err instanceof Error ? err.message : String(err)
        bus.emit('ended', {
          type: 'ended',
          runId: handle.runId,
          status: 'failed',
          error,
        } satisfies RunEndedEvent)
      })
      return { runId: handle.runId }
    },
    async stop(runId) {
      const run = active.get(parseArgs('runs:stop', [runId])[0])
      if (!run) throw new ApiError('not-found', `run ${runId} is not running`)
      run.stop()
    },
    async active() {
      return [...active.keys()]
    },
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
