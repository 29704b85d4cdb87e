// The engine host: the one implementation of `Api` (engine/api/api.ts). Web mode serves it over
// HTTP/WebSocket, Electron runs it in a utilityProcess behind IPC, tests call it directly. This file
// wires it together; its larger operation groups live in engine/host/ (runs.ts, studies.ts,
// outputs.ts for exports and reports) and its events on one bus (host/bus.ts).
import { dirname, join } from 'node:path'
import type { Api } from '../api/api.ts'
import { parseArgs, type Settings } from '../api/schemas.ts'
import type { StackLogEvent } from '../api/types.ts'
import { startDemoServer, type DemoServer } from '../demo/server.ts'
import type { RunHandle } from '../runner/supervisor.ts'
import type { LaunchOptions } from './launch.ts'
import { Stacks, stackStateDir } from '../stacks/stacks.ts'
import { testMonitor } from '../monitor/index.ts'
import { probeTarget } from '../config/probe.ts'
import { applyRetention } from '../store/retention.ts'
import { thisProcess } from '../store/owner.ts'
import { HistoryStore } from '../store/queries.ts'
import { startLedgerUpkeep, type LedgerUpkeep } from './upkeep.ts'
import { createLocal, type LocalCapabilities } from './local.ts'
import { openHostHistory, withStorageErrors, writableCheck } from './storage.ts'
import { settingsStore } from './settings.ts'
import { createBus } from './bus.ts'
import { createStudies } from './studies.ts'
import { runsApi } from './runs.ts'
import { exportsApi, reportsApi } from './outputs.ts'

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
  const events = createBus()
  const { bus, subscribe, log } = events
  const active = new Map<number, RunHandle>()

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

  const studies = createStudies({ db, dbPath: opts.dbPath, bus: events, active, stacks, runOptions })
  const outputs = { db, dbPath: opts.dbPath, history, bus: events, pgPassword }
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
      await Promise.allSettled([...studies.running])
      await upkeep.close()
      await demo?.close()
      await stacks.close()
      db.close()
    },
    runs: runsApi({
      db,
      dbPath: opts.dbPath,
      history,
      bus: events,
      active,
      stacks,
      studies,
      runOptions,
      writable,
      retention,
    }),
    studies: studies.api,
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
    exports: exportsApi(outputs),
    reports: reportsApi(outputs),
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
