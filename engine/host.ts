// The engine host: the one implementation of `Api` (engine/api/api.ts). Web mode serves it over
// HTTP/WebSocket, Electron runs it in a utilityProcess behind IPC, tests call it directly.
import { EventEmitter } from 'node:events'
import { dirname, join } from 'node:path'
import type { Api } from './api/api.ts'
import { ApiError } from './api/errors.ts'
import { parseArgs, type Settings } from './api/schemas.ts'
import type {
  Distribution,
  ExportProgressEvent,
  ProgressEvent,
  ReportProgressEvent,
  RunEndedEvent,
  AgentsEvent,
  StackLogEvent,
  ValidationResult,
} from './api/types.ts'
import { ConfigError } from './config/errors.ts'
import { parseRunConfig } from './config/load.ts'
import { connectProblem, preflight } from './config/preflight.ts'
import { startDemoServer, type DemoServer } from './demo/server.ts'
import type { RunHandle, RunHooks } from './runner/supervisor.ts'
import { launchRun, type LaunchOptions } from './agents/start.ts'
import { agentsDataDir, removeLocalLedgers } from './agents/ledgers.ts'
import { runStudy } from './study/sweep.ts'
import { stackControl } from './study/stack-control.ts'
import {
  changesStack,
  DEFAULT_RESTART_WARMUP_SECONDS,
  hasWarmup,
  stackPort,
  warmedUp,
  type ExpandOptions,
} from './config/sweep.ts'
import type { RunConfig } from './config/schema.ts'
import { HistoryStore } from './store/queries.ts'
import { exportCsv, exportJson, exportJunit, exportPg, exportStudyCsv } from './exports/index.ts'
import { testMonitor } from './monitor/index.ts'
import { Stacks, stackStateDir } from './stacks/stacks.ts'
import { reportsCreate } from './report/index.ts'
import { testPgConnection } from './exports/pg-test.ts'
import { probeTarget } from './config/probe.ts'
import { studyResults } from './study/results.ts'
import { compareRuns } from './metrics/compare.ts'
import { distributions } from './metrics/distribution.ts'
import { applyRetention, ledgerInfo, pruneLedger } from './store/ledger.ts'
import { thisProcess } from './store/owner.ts'
import { startLedgerUpkeep, type LedgerUpkeep } from './host/upkeep.ts'
import { listStudies } from './store/studies.ts'
import { listTemplates } from './study/templates.ts'
import { createLocal, type LocalCapabilities, type RunLogEvent, type StudyEvent } from './host/local.ts'
import { openHostHistory, withStorageErrors, writableCheck } from './host/storage.ts'
import { settingsStore } from './host/settings.ts'
import { privateDir } from './paths.ts'
import { redactText } from './config/redact.ts'

export interface EngineHost extends Api {
  close(): Promise<void>
  /** The embedded demo target's base URL (started on first use). */
  demoUrl(): Promise<string>
  readonly dbPath: string
  /** Why the database was opened read-only (not writable here), or null. */
  readonly readOnly: string | null
  /** For a client on this machine only (the CLI); no transport offers it (see host/local.ts). */
  readonly local: LocalCapabilities
}

export interface EngineOptions {
  dbPath: string
  /** Run bundled stacks on these ports instead of their own (by name); their URLs follow. */
  stackPorts?: Readonly<Record<string, number>>
  /** Start the demo target eagerly (web mode does, so the UI can offer it at once). */
  demo?: boolean
  /**
   * Pin every runner this engine starts to this CPU (Linux taskset): `cannonade run --cpu N`; a
   * run of local load agents pins agent i to CPU N + i.
   */
  cpu?: number
  /**
   * Secrets handed over explicitly (the desktop app's engine process gets them by message, not
   * through its environment), by variable name: PGPASSWORD for PostgreSQL when the URL has no
   * password, CF_PASSWORD / CF_REFRESH_TOKEN / CF_TOKEN for Cloud Foundry monitors. Read at each
   * use, so a secret set while the engine runs applies to the next run or export.
   */
  secrets?: () => Readonly<Record<string, string>>
  /** Told once about what the user should know but that is no error (a read-only database). */
  onNotice?: (message: string) => void
  /**
   * The PostgreSQL coordination store for load agents that are not local processes
   * (`agents.on` docker, swarm, kubernetes): the CLI passes CANNONADE_STORE_URL.
   */
  agentStoreUrl?: string
}

type SettingsOut = Settings & { demoUrl?: string; dataDir?: string }

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

export async function createEngine(opts: EngineOptions): Promise<EngineHost> {
  const { db, readOnly } = openHostHistory(opts.dbPath, opts.onNotice)
  const writable = writableCheck(opts.dbPath, readOnly)
  // Secrets given explicitly (EngineOptions.secrets): Cloud Foundry monitors find theirs by variable
  // name among a run's secrets; PostgreSQL gets PGPASSWORD when its URL carries no password.
  // The load agents' coordination store carries a password: an option of the CLI's, or a secret.
  const self = thisProcess()
  const runOptions = (): LaunchOptions => {
    const storeUrl = opts.agentStoreUrl ?? opts.secrets?.().CANNONADE_STORE_URL
    return {
      ...(opts.cpu !== undefined ? { cpu: opts.cpu } : {}),
      ...(opts.secrets ? { secrets: { ...opts.secrets() } } : {}),
      owner: self,
      expander,
      ...(storeUrl ? { agentStoreUrl: storeUrl } : {}),
      ...dockerHost(),
    }
  }
  const pgPassword = () => opts.secrets?.().PGPASSWORD
  const history = new HistoryStore(db)
  const bus = new EventEmitter()
  bus.setMaxListeners(100)
  const active = new Map<number, RunHandle>()
  const log = (level: RunLogEvent['level'], message: string) =>
    bus.emit('run-log', { type: 'run-log', level, message: redactText(message) } satisfies RunLogEvent)

  let upkeep: LedgerUpkeep
  try {
    upkeep = await startLedgerUpkeep({ db, history, self, active, log, readOnly: readOnly !== null })
  } catch (err) {
    db.close()
    throw err
  }
  const expander = upkeep.expander
  const settingsFile = join(dirname(opts.dbPath), 'settings.json')
  const stacks = new Stacks({
    stateDir: stackStateDir(opts.dbPath),
    // Settings → Docker host, read at each call: a change applies to the next command.
    dockerHost: () => readSettings().dockerHost,
    ...(opts.stackPorts ? { ports: opts.stackPorts } : {}),
    onLog: (stack, line) => bus.emit('stack-log', { type: 'stack-log', stack, line } satisfies StackLogEvent),
  })
  let demo: DemoServer | null = null
  let demoStarting: Promise<DemoServer> | null = null

  const demoUrl = async () => {
    demoStarting ??= startDemoServer().then((d) => (demo = d))
    return (await demoStarting).url
  }
  if (opts.demo) await demoUrl()

  const settings = settingsStore(settingsFile, readOnly === null)
  const readSettings = settings.read

  /** The Docker host setting, for runs and monitor tests (stacks read it themselves). */
  const dockerHost = (): { dockerHost?: string } => {
    const host = readSettings().dockerHost
    return host ? { dockerHost: host } : {}
  }

  // Retention of the raw ledger (settings.ledgerRetentionDays): at start and after each run.
  const retention = () => {
    if (readOnly !== null) return
    const days = readSettings().ledgerRetentionDays
    if (days) applyRetention(db, days)
  }
  retention()

  const validate = (config: unknown): ValidationResult => {
    try {
      return { ok: true, issues: [], config: parseRunConfig(config) }
    } catch (err) {
      if (err instanceof ConfigError) return { ok: false, issues: [...err.issues], config: null }
      throw err
    }
  }

  const subscribe = <T>(event: string, cb: (e: T) => void) => {
    bus.on(event, cb)
    return () => void bus.off(event, cb)
  }

  const study = (e: StudyEvent) => bus.emit('study', e)

  const expandOptions: ExpandOptions = {
    stackUrl: (name) => stacks.list().find((s) => s.name === name)?.url ?? null,
  }
  // Studies still going on: closing the engine waits for them to put their stacks back.
  const studies = new Set<Promise<unknown>>()

  /** A sweep: one run after another as a study; answers once the first run has started. */
  const startStudy = (config: RunConfig, hooks: RunHooks, allowConcurrent: boolean) =>
    new Promise<{ runId: number; studyId: number }>((resolve, reject) => {
      let studyId: number | null = null
      const running = runStudy(
        db,
        opts.dbPath,
        config,
        {
          ...hooks,
          onRunStart: ({ runId, handle, index, point, labels, ...s }) => {
            active.set(runId, handle)
            study({ type: 'run', studyId: s.studyId, index, point, labels, runId })
            if (studyId === null) resolve({ runId, studyId: s.studyId })
            studyId = s.studyId
          },
          onStack: (step) => {
            study(step)
            const line =
              step.type === 'restart'
                ? `restarting for the study with ${JSON.stringify(step.env)}${step.replicas > 1 ? `, ${step.replicas} replicas` : ''}; the run opens with ${step.warmupSeconds} s of warm-up`
                : step.type === 'restore'
                  ? step.running
                    ? `the study is over: restoring the settings it found (${JSON.stringify(step.env)})`
                    : 'the study is over: stopping it, as it was not running before'
                  : `could not be restored: ${step.error}`
            bus.emit('stack-log', { type: 'stack-log', stack: step.stack, line } satisfies StackLogEvent)
          },
          stacks: stackControl(stacks),
        },
        { ...runOptions(), allowConcurrent },
        expandOptions,
      ).then(
        (r) => study({ type: 'study-ended', studyId: r.studyId, error: null }),
        (err: unknown) => {
          const error =
            err instanceof ConfigError
              ? new ApiError('bad-input', err.message, err.field)
              : err instanceof Error
                ? err
                : new Error(String(err))
          if (studyId === null) return reject(error)
          bus.emit('run-log', {
            type: 'run-log',
            level: 'error',
            message: error.message,
          } satisfies RunLogEvent)
          study({ type: 'study-ended', studyId, error: error.message })
        },
      )
      studies.add(running)
      void running.finally(() => studies.delete(running))
    })

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

  const exportPath = (name: string) => {
    const dir = join(dirname(opts.dbPath), 'exports')
    privateDir(dir)
    return join(dir, name)
  }

  const local = createLocal({ db, history, stacks, active, subscribe })
  const host: EngineHost = {
    dbPath: opts.dbPath,
    readOnly,
    demoUrl,
    local: {
      ...local,
      importJson: async (file) => {
        writable()
        return local.importJson(file)
      },
    },
    async close() {
      for (const run of active.values()) run.stop()
      await Promise.allSettled([...active.values()].map((r) => r.done))
      await Promise.allSettled([...studies])
      await upkeep.close()
      await demo?.close()
      await stacks.close()
      db.close()
    },
    runs: {
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
        if (config.sweep) return startStudy(config, hooks, allowConcurrent)
        const handle = await launchRun(db, opts.dbPath, config, hooks, { ...runOptions(), allowConcurrent })
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
        removeLocalLedgers(distribution, agentsDataDir(opts.dbPath))
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
    },
    studies: {
      async list() {
        return listStudies(db)
      },
      async get(studyId) {
        return studyResults(db, parseArgs('studies:get', [studyId])[0])
      },
      async templates() {
        return listTemplates().map(({ id, name, description, config }) => ({ id, name, description, config }))
      },
    },
    targets: {
      async probe(url, o) {
        const [u, parsed] = parseArgs('targets:probe', [url, o])
        return probeTarget(u, { insecure: parsed?.insecure ?? false })
      },
    },
    stacks: {
      list: async () => stacks.list(),
      up: async (name, o) => {
        const [n, parsed] = parseArgs('stacks:up', [name, o])
        return stacks.up(n, {
          native: parsed?.native ?? false,
          ...(parsed?.replicas !== undefined ? { replicas: parsed.replicas } : {}),
        })
      },
      down: async (name, o) => {
        const [n, parsed] = parseArgs('stacks:down', [name, o])
        return stacks.down(n, { volumes: parsed?.volumes ?? false })
      },
      status: async () => stacks.status(),
      onLog: (cb: (e: StackLogEvent) => void) => subscribe('stack-log', cb),
    },
    monitor: {
      async test(spec) {
        const r = await testMonitor(spec, { timeoutMs: 10_000, stacks, ...dockerHost() })
        return { ok: r.ok, message: r.message, instances: r.instances }
      },
    },
    // Exports land in <data dir>/exports/, named after the run, and report their path.
    exports: {
      async pg(runIds, o) {
        const [ids, { url }] = parseArgs('exports:pg', [runIds, o])
        return exportPg(
          db,
          ids,
          url,
          (p) => bus.emit('export-progress', { type: 'export-progress', ...p } satisfies ExportProgressEvent),
          { password: pgPassword() },
        )
      },
      async pgTest(o) {
        return testPgConnection(parseArgs('exports:pgTest', [o])[0].url, { password: pgPassword() })
      },
      onProgress: (cb) => subscribe('export-progress', cb),
      async csv(runId, o) {
        const [id, { kind }] = parseArgs('exports:csv', [runId, o])
        return exportCsv(db, id, { kind }, exportPath(`run-${id}-${kind}.csv`))
      },
      async json(runIds) {
        const [ids] = parseArgs('exports:json', [runIds])
        return exportJson(db, ids, exportPath(`runs-${ids.join('-')}.json`))
      },
      async junit(runId) {
        const [id] = parseArgs('exports:junit', [runId])
        return exportJunit(db, id, exportPath(`run-${id}-thresholds.xml`))
      },
      async studyCsv(studyId) {
        const [id] = parseArgs('exports:studyCsv', [studyId])
        return exportStudyCsv(db, id, exportPath(`study-${id}.csv`))
      },
    },
    reports: {
      async create(runIds, o) {
        const [ids, parsed] = parseArgs('reports:create', [runIds, o])
        privateDir(join(dirname(opts.dbPath), 'reports'))
        const format = parsed?.format ?? 'pdf'
        return reportsCreate(history, ids, {
          dir: join(dirname(opts.dbPath), 'reports'),
          format,
          onProgress: ({ stage, elapsedMs }) =>
            bus.emit('report-progress', {
              type: 'report-progress',
              runIds: ids,
              format,
              stage,
              elapsedMs,
            } satisfies ReportProgressEvent),
        })
      },
      onProgress: (cb) => subscribe('report-progress', cb),
    },
    settings: {
      async get(): Promise<SettingsOut> {
        return { ...readSettings(), dataDir: dirname(opts.dbPath), demoUrl: await demoUrl() }
      },
      async set(patch) {
        const next: Record<string, unknown> = { ...readSettings() }
        for (const [key, value] of Object.entries(parseArgs('settings:set', [patch])[0])) {
          if (value === undefined) continue
          // null or an emptied text: the setting is removed (its default applies again).
          if (value === null || value === '') delete next[key]
          else next[key] = value
        }
        settings.write(next as Settings)
        retention()
        return readSettings()
      },
    },
  }
  return withStorageErrors(host, opts.dbPath)
}
