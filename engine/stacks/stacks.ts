// One-click target stacks (targets/README.md): `up` builds and starts a compose project,
// streaming its output, waits for /health and returns the URL; `down` removes its containers and
// networks (its database volume only when asked); `--native` runs the same server as a local
// process against a local PostgreSQL. With replicas > 1 the app service is scaled and a balancer
// (targets/_lb) publishes the stack's port. Nothing is left running after a failure.
//
// `Stacks` is what callers use (the host, the CLI, engine/stacks/policy.ts); it picks a side per
// stack: compose-project.ts (Docker), native-state.ts (local processes, recorded in the data
// folder) and status.ts (how a stack runs now). Stacks touch only what they started: compose
// projects carry a hash of the data folder in their name, and native processes are signalled only
// while their pid still has the recorded start time.
import { dirname, join } from 'node:path'
import { ApiError } from '../api/errors.ts'
import { MAX_REPLICAS } from '../config/limits.ts'
import type { StackInfo, StackStatus } from '../api/types.ts'
import {
  composeDatabaseUrl,
  composeDown,
  composeUp,
  projectFor,
  type ComposeProject,
} from './compose-project.ts'
import { getStack, loadManifest, type StackSpec } from './manifest.ts'
import type { NativeStack } from './native.ts'
import {
  liveRecord,
  readRecord,
  recordNative,
  removeRecord,
  startNative,
  stopRecordedStack,
} from './native-state.ts'
import { composeSettings, composeStatus, info, nativeStatus } from './status.ts'

export interface StacksOptions {
  /** Where native stacks record their processes; its folder names the compose projects. */
  stateDir: string
  onLog?: (stack: string, line: string) => void
  healthTimeoutMs?: number
  /** The Docker host setting, read at each call (engine/monitor/docker-host.ts); unset: DOCKER_HOST or the default. */
  dockerHost?: () => string | undefined
  /**
   * Ports to run stacks on instead of their own (by stack name): where 8081-8084 are taken, and
   * for tests on free ports. Their URLs follow, so configs and sweeps that name a stack do too.
   */
  ports?: Readonly<Record<string, number>>
}

export interface UpOptions {
  native?: boolean
  /** Environment for the app (POOL_SIZE, WORKERS, THREADS…), e.g. from a sweep. */
  env?: Record<string, string | number>
  port?: number
  /** Where its HTTPS listens when `env` has TLS=on (default: the manifest's `tlsPort`). */
  tlsPort?: number
  /** App instances behind a load balancer (Docker only); 1 = no balancer. */
  replicas?: number
  /**
   * Rebuild the images first (the default). A restart of a running stack with other settings
   * (a sweep's next value) skips it: its images are the ones it runs, built when it came up.
   */
  build?: boolean
}

/** How a stack runs now, enough to start it the same way again (a sweep restores it so). */
export interface StackSnapshot {
  name: string
  running: boolean
  native: boolean
  /** The settings the app runs with (POOL_SIZE…) and the containers' limits (CANNONADE_APP_CPUS…). */
  env: Record<string, string>
  replicas: number
  /** The port it answers on. */
  port: number
}

export interface DownOptions {
  /** Also delete the stack's database volume (Docker). Never the default. */
  volumes?: boolean
}

/** Where the stacks of the database at `dbPath` keep their state: one per data folder. */
export function stackStateDir(dbPath: string): string {
  return join(dirname(dbPath), 'native-stacks')
}

function stackOrError(name: string): StackSpec {
  try {
    return getStack(name)
  } catch {
    throw new ApiError(
      'not-found',
      `unknown stack "${name}"; known stacks: ${loadManifest()
        .stacks.map((s) => s.name)
        .join(', ')}`,
    )
  }
}

function checkReplicas(replicas: number, native: boolean): void {
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > MAX_REPLICAS) {
    throw new ApiError('bad-input', `replicas must be a whole number from 1 to ${MAX_REPLICAS}`, 'replicas')
  }
  if (native && replicas > 1) {
    throw new ApiError(
      'bad-input',
      'replicas need Docker: a native stack runs one server process',
      'replicas',
    )
  }
}

const portOf = (url: string) => Number(new URL(url).port || 80)

/**
 * The port a stack's HTTPS is to listen on, or null when its env does not ask for TLS. The
 * balancer in front of replicas passes plain HTTP only, so TLS runs on one instance.
 */
function tlsPortOf(
  s: StackSpec,
  env: Record<string, string>,
  replicas: number,
  asked: number | undefined,
): number | null {
  if (env['TLS'] !== 'on') return null
  if (replicas > 1)
    throw new ApiError(
      'bad-input',
      `TLS=on runs one instance of ${s.name}: the balancer in front of replicas passes plain HTTP only`,
      'replicas',
    )
  const port = asked ?? s.tlsPort
  if (port === undefined) throw new ApiError('bad-input', `stack ${s.name} serves no TLS`, 'env')
  return port
}

export class Stacks {
  private readonly o: StacksOptions
  /** Native stacks this process started (others are known by their records). */
  private readonly native = new Map<string, NativeStack>()

  constructor(o: StacksOptions) {
    this.o = o
  }

  /** A stack's manifest entry, on the port this data folder's engine runs it on. */
  private spec(name: string): StackSpec {
    return this.onPort(stackOrError(name))
  }

  private onPort(s: StackSpec): StackSpec {
    const port = this.o.ports?.[s.name]
    return port === undefined ? s : { ...s, port, url: `http://127.0.0.1:${port}` }
  }

  private log(name: string): (line: string) => void {
    return (line) => this.o.onLog?.(name, line)
  }

  private get healthTimeoutMs(): number {
    return this.o.healthTimeoutMs ?? 120_000
  }

  /** The stack as a compose project of this data folder, on the Docker host set now. */
  private compose(s: StackSpec): ComposeProject {
    return {
      spec: s,
      project: projectFor(s.project, this.o.stateDir),
      dockerHost: this.o.dockerHost?.(),
      log: this.log(s.name),
    }
  }

  list(): StackInfo[] {
    return loadManifest().stacks.map((s) => info(this.onPort(s)))
  }

  /** The compose project of a stack in this data folder. */
  project(name: string): string {
    return projectFor(this.spec(name).project, this.o.stateDir)
  }

  appService(name: string): string {
    return this.spec(name).appService
  }

  /** A URL to the stack's PostgreSQL as it runs now: its local cluster, or the container's published port. */
  async databaseUrl(name: string): Promise<string> {
    const s = this.spec(name)
    const native = this.native.get(name)?.databaseUrl ?? liveRecord(this.o.stateDir, name)?.databaseUrl
    return native ?? composeDatabaseUrl(this.compose(s))
  }

  async up(name: string, opts: UpOptions = {}): Promise<StackStatus> {
    const s = this.spec(name)
    const port = opts.port ?? s.port
    const replicas = opts.replicas ?? 1
    checkReplicas(replicas, opts.native === true)
    const env = Object.fromEntries(Object.entries(opts.env ?? {}).map(([k, v]) => [k, String(v)]))
    const tlsPort = tlsPortOf(s, env, replicas, opts.tlsPort)
    if (opts.native) return this.upNative(s, port, tlsPort, env)
    const deadline = await composeUp(
      this.compose(s),
      { port, tlsPort, env, replicas, build: opts.build !== false, healthTimeoutMs: this.healthTimeoutMs },
      () => this.down(name),
    )
    // Our own /health probe answered; Docker's healthcheck lags by up to its interval. Wait for it
    // (same deadline), so that `stacks status` right after `up` says what `up` said.
    let status = await this.statusOf(s)
    while (status.state === 'starting' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250))
      status = await this.statusOf(s)
    }
    const url = `http://127.0.0.1:${port}`
    return { ...status, url, state: status.state === 'starting' ? 'healthy' : status.state }
  }

  private async upNative(
    s: StackSpec,
    port: number,
    tlsPort: number | null,
    env: Record<string, string>,
  ): Promise<StackStatus> {
    await this.down(s.name).catch(() => undefined)
    const log = this.log(s.name)
    const stack = await startNative(s, { port, tlsPort, env, log, timeoutMs: this.healthTimeoutMs })
    this.native.set(s.name, stack)
    recordNative(this.o.stateDir, stack, env)
    const https = stack.server.tlsPort !== null ? `, HTTPS at https://127.0.0.1:${stack.server.tlsPort}` : ''
    log(`${s.name} (native) is healthy at ${stack.url}${https}`)
    return nativeStatus(s, stack.url)
  }

  async down(name: string, opts: DownOptions = {}): Promise<void> {
    const s = this.spec(name)
    const native = this.native.get(name)
    if (native) {
      await native.stop()
      this.native.delete(name)
    } else {
      await stopRecordedStack(this.o.stateDir, name, this.log(name))
    }
    removeRecord(this.o.stateDir, name)
    if (!native) await composeDown(this.compose(s), opts.volumes === true)
  }

  private async statusOf(s: StackSpec): Promise<StackStatus> {
    const native = this.native.get(s.name)?.url ?? liveRecord(this.o.stateDir, s.name)?.url
    return native ? nativeStatus(s, native) : composeStatus(this.compose(s))
  }

  /** How the stack runs now: whether it runs, where, with which settings and limits. */
  async snapshot(name: string): Promise<StackSnapshot> {
    const s = this.spec(name)
    const record = this.native.has(name)
      ? readRecord(this.o.stateDir, name)
      : liveRecord(this.o.stateDir, name)
    if (this.native.has(name) || record) {
      const url = this.native.get(name)?.url ?? record?.url ?? s.url
      return { name, running: true, native: true, env: record?.env ?? {}, replicas: 1, port: portOf(url) }
    }
    const status = await this.statusOf(s)
    if (status.state === 'down')
      return { name, running: false, native: false, env: {}, replicas: 1, port: s.port }
    return {
      name,
      running: true,
      native: false,
      env: await composeSettings(this.compose(s)),
      replicas: Math.max(1, status.replicas),
      port: portOf(status.url),
    }
  }

  async status(): Promise<StackStatus[]> {
    return Promise.all(loadManifest().stacks.map((s) => this.statusOf(this.onPort(s))))
  }

  /** Stop native stacks this process started (the host closes). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.native.keys()].map((n) => this.down(n)))
  }
}
