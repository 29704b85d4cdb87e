// The engine host: the one implementation of `Api` (engine/api/api.ts). Web mode serves it over
// HTTP/WebSocket, Electron runs it in a utilityProcess behind IPC, tests call it directly. This file
// wires it together; its operation groups live in engine/host/ (runs.ts, studies.ts, outputs.ts for
// exports and reports, targets.ts for targets, stacks and monitors, settings.ts) and its events on
// one bus (host/bus.ts).
import { dirname, join } from 'node:path'
import type { Api } from '../api/api.ts'
import { startDemoServer, type DemoServer } from '../demo/server.ts'
import type { RunHandle } from '../runner/supervisor.ts'
import type { LaunchOptions } from '../agents/launch-run.ts'
import { applyRetention } from '../store/retention.ts'
import { thisProcess } from '../store/owner.ts'
import type { Db } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { startLedgerUpkeep, type LedgerUpkeep } from './upkeep.ts'
import { createLocal, type LocalCapabilities } from './local-capabilities.ts'
import { openHostHistory, withStorageErrors, writableCheck } from './storage.ts'
import { settingsApi, settingsStore, type SettingsStore } from './settings.ts'
import {
  hostStacks,
  monitorApi,
  scenariosApi,
  stacksApi,
  targetsApi,
  type MonitorSettingsOption,
} from './targets.ts'
import { createBus } from './bus.ts'
import { secretsFolder } from '../config/files.ts'
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
  /** For a client on this machine only (the CLI); no transport offers it (see host/local-capabilities.ts). */
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
   * password, CF_PASSWORD / CF_REFRESH_TOKEN / CF_TOKEN for Cloud Foundry monitors, PROMETHEUS_TOKEN
   * (or a CANNONADE_… variable a spec names) for Prometheus ones; runs and the monitor Test button
   * get them. Read at each
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

/** The embedded demo target, started on first use (or at once, for web mode). */
function lazyDemo(): { url: () => Promise<string>; close: () => Promise<void> } {
  let demo: DemoServer | null = null
  let starting: Promise<DemoServer> | null = null
  return {
    url: async () => {
      starting ??= startDemoServer().then((d) => (demo = d))
      return (await starting).url
    },
    close: async () => {
      await demo?.close()
    },
  }
}

/**
 * What each run this host starts is given, read at its start. Secrets given explicitly
 * (EngineOptions.secrets): Cloud Foundry monitors find theirs by variable name among a run's
 * secrets. The load agents' coordination store carries a password: an option of the CLI's, or a
 * secret.
 */
function launchOptions(
  opts: EngineOptions,
  owner: LaunchOptions['owner'],
  expander: LaunchOptions['expander'],
  monitorSettings: MonitorSettingsOption,
): LaunchOptions {
  const storeUrl = opts.agentStoreUrl ?? opts.secrets?.().CANNONADE_STORE_URL
  return {
    ...(opts.cpu !== undefined ? { cpu: opts.cpu } : {}),
    ...(opts.secrets ? { secrets: { ...opts.secrets() } } : {}),
    owner,
    expander,
    ...(storeUrl ? { agentStoreUrl: storeUrl } : {}),
    ...monitorSettings(),
  }
}

/**
 * What every operation group shares: the database as the host opens it (read-only when it must
 * be), its history, the event bus, the runs going, and the upkeep of ended runs' ledgers.
 */
async function openStorage(opts: EngineOptions) {
  const { db, readOnly } = openHostHistory(opts.dbPath, opts.onNotice)
  const self = thisProcess()
  const history = new HistoryStore(db)
  const events = createBus()
  const active = new Map<number, RunHandle>()
  let upkeep: LedgerUpkeep
  try {
    upkeep = await startLedgerUpkeep({
      db,
      history,
      self,
      active,
      log: events.log,
      readOnly: readOnly !== null,
    })
  } catch (err) {
    db.close()
    throw err
  }
  return {
    db,
    readOnly,
    writable: writableCheck(opts.dbPath, readOnly),
    self,
    history,
    events,
    active,
    upkeep,
  }
}

/** Retention of the raw ledger (settings.ledgerRetentionDays): at start and after each run. */
function ledgerRetention(db: Db, readOnly: string | null, settings: SettingsStore): () => void {
  return () => {
    if (readOnly !== null) return
    const days = settings.read().ledgerRetentionDays
    if (days) applyRetention(db, days)
  }
}

export async function createEngine(opts: EngineOptions): Promise<EngineHost> {
  const { db, readOnly, writable, self, history, events, active, upkeep } = await openStorage(opts)
  const settings = settingsStore(join(dirname(opts.dbPath), 'settings.json'), readOnly === null)
  const monitorSettings: MonitorSettingsOption = () => {
    const { dockerHost, secretsDir } = settings.read()
    const folder = secretsFolder(secretsDir)
    return { ...(dockerHost ? { dockerHost } : {}), ...(folder ? { secretsDir: folder } : {}) }
  }
  const stacks = hostStacks({
    dbPath: opts.dbPath,
    ports: opts.stackPorts,
    dockerHost: () => settings.read().dockerHost,
    bus: events,
  })
  const demo = lazyDemo()
  if (opts.demo) await demo.url()
  const retention = ledgerRetention(db, readOnly, settings)
  retention()

  const runOptions = () => launchOptions(opts, self, upkeep.expander, monitorSettings)
  const studies = createStudies({ db, dbPath: opts.dbPath, bus: events, active, stacks, runOptions })
  // PostgreSQL gets PGPASSWORD when its URL carries no password.
  const outputs = {
    db,
    dbPath: opts.dbPath,
    history,
    bus: events,
    pgPassword: () => opts.secrets?.().PGPASSWORD,
  }
  const local = createLocal({ db, upkeep, writable, history, stacks, active, subscribe: events.subscribe })
  const host: EngineHost = {
    dbPath: opts.dbPath,
    readOnly,
    demoUrl: demo.url,
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
      await demo.close()
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
    targets: targetsApi(),
    scenarios: scenariosApi(),
    stacks: stacksApi(stacks, events),
    monitor: monitorApi(stacks, monitorSettings, opts.secrets),
    // Exports land in <data dir>/exports/, named after the run, and report their path.
    exports: exportsApi(outputs),
    reports: reportsApi(outputs),
    settings: settingsApi(settings, { dataDir: dirname(opts.dbPath), demoUrl: demo.url, changed: retention }),
  }
  return withStorageErrors(host, opts.dbPath)
}
