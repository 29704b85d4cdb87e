// The engine host's operations on what is measured: probing a target URL, importing the requests
// a user has as scenario steps (engine/import/), the bundled target stacks (engine/stacks/stacks.ts,
// on this data folder and the Docker host setting) with their log lines on the bus, and testing a
// monitor before a run uses it.
import type { Api } from '../api/api.ts'
import { parseArgs } from '../api/schemas.ts'
import type { StackLogEvent } from '../api/types.ts'
import { probeTarget } from '../config/probe.ts'
import { ConfigError } from '../config/errors.ts'
import { ApiError } from '../api/errors.ts'
import { importScenario } from '../import/index.ts'
import { testMonitor } from '../monitor/index.ts'
import { Stacks, stackStateDir } from '../stacks/stacks.ts'
import type { HostBus } from './bus.ts'

/** The Docker host setting as an option for runs and monitor tests (stacks read it themselves). */
/** What monitors take from the settings, read when they start: the Docker host and the secrets folder. */
export type MonitorSettingsOption = () => { dockerHost?: string; secretsDir?: string }

/** This data folder's stacks, on `ports` where given; the Docker host setting read at each call. */
export function hostStacks(o: {
  dbPath: string
  ports: Readonly<Record<string, number>> | undefined
  dockerHost: () => string | undefined
  bus: HostBus
}): Stacks {
  return new Stacks({
    stateDir: stackStateDir(o.dbPath),
    // Settings → Docker host, read at each call: a change applies to the next command.
    dockerHost: o.dockerHost,
    ...(o.ports ? { ports: o.ports } : {}),
    onLog: (stack, line) =>
      o.bus.bus.emit('stack-log', { type: 'stack-log', stack, line } satisfies StackLogEvent),
  })
}

export function targetsApi(): Api['targets'] {
  return {
    async probe(url, o) {
      const [u, parsed] = parseArgs('targets:probe', [url, o])
      return probeTarget(u, { insecure: parsed?.insecure ?? false })
    },
  }
}

export function scenariosApi(): Api['scenarios'] {
  return {
    async import(source) {
      const [{ kind, text, ...opts }] = parseArgs('scenarios:import', [source])
      try {
        return importScenario(kind, [text], opts)
      } catch (err) {
        if (err instanceof ConfigError) throw new ApiError('bad-input', err.message, err.field)
        throw err
      }
    },
  }
}

export function stacksApi(stacks: Stacks, bus: HostBus): Api['stacks'] {
  return {
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
    onLog: (cb: (e: StackLogEvent) => void) => bus.subscribe('stack-log', cb),
  }
}

export function monitorApi(
  stacks: Stacks,
  monitorSettings: MonitorSettingsOption,
  /** The secrets handed to the engine (the desktop app's): a monitor's token or password variable. */
  secrets?: () => Readonly<Record<string, string>>,
): Api['monitor'] {
  return {
    async test(spec) {
      const r = await testMonitor(spec, {
        timeoutMs: 10_000,
        stacks,
        ...monitorSettings(),
        ...(secrets ? { secrets: { ...secrets() } } : {}),
      })
      return { ok: r.ok, message: r.message, instances: r.instances }
    },
  }
}
