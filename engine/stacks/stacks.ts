// One-click target stacks (targets/README.md): `up` builds and starts a compose project,
// streaming its output, waits for /health and returns the URL; `down` removes its containers and
// networks (its database volume only when asked); `--native` runs the same server as a local
// process against a local PostgreSQL. With replicas > 1 the app service is scaled and a balancer
// (targets/_lb) publishes the stack's port. Nothing is left running after a failure.
//
// Stacks touch only what they started: compose projects carry a hash of the data folder in their
// name (two data folders, or two people on one Docker daemon, never share a project), and native
// processes are signalled only while their pid still has the recorded start time.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import net from 'node:net'
import { basename, dirname, join, resolve } from 'node:path'
import { ApiError } from '../api/errors.ts'
import { MAX_REPLICAS } from '../config/limits.ts'
import type { StackInfo, StackStatus } from '../api/types.ts'
import { detectCompose, DOCKER_TIMEOUTS, failureText, run } from './compose.ts'
import {
  containerEnv,
  containerLimits,
  formatMemory,
  portHolders,
  projectContainers,
  publishedAddress,
} from './containers.ts'
import type { ContainerInfo } from './containers.ts'
import {
  getStack,
  loadManifest,
  repoRoot,
  startNativeStack,
  type NativeStack,
  type StackSpec,
} from './native.ts'
import { readRecord, recordOf, removeRecord, stopRecorded, writeRecord } from './native-state.ts'
import type { NativeRecord } from './native-state.ts'

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

/** `cannonade-node-http-1a2b3c`: the manifest's project plus a short hash of the data folder. */
export function projectFor(base: string, stateDir: string): string {
  let dir = resolve(stateDir)
  try {
    dir = join(realpathSync(dirname(dir)), basename(dir))
  } catch {
    /* the data folder does not exist yet: its resolved path is as unique */
  }
  return `${base}-${createHash('sha256').update(dir).digest('hex').slice(0, 6)}`
}

function info(s: StackSpec): StackInfo {
  const app = s.limits[s.appService] ?? null
  return {
    name: s.name,
    description: s.description,
    url: s.url,
    runtime: s.runtime,
    limits: { cpus: app?.cpus ?? null, memory: app?.memory ?? null },
  }
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

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer()
    s.once('error', () => resolve(false))
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)))
  })
}

async function healthy(url: string): Promise<boolean> {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(2000) })
    return r.ok
  } catch {
    return false
  }
}

/**
 * The variables a stack's compose files read (`${NAME…}`): the app's settings and the limits
 * (CANNONADE_APP_CPUS…), but not the ports and replica count, which up() sets itself.
 */
function composeVariables(s: StackSpec): string[] {
  const lb = loadManifest().balancer
  const managed = new Set([s.portEnv, lb.portEnv, lb.replicasEnv])
  const names = new Set<string>()
  for (const file of [s.composeFile, lb.composeFile]) {
    const text = readFileSync(join(repoRoot, file), 'utf8')
    for (const m of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)) if (!managed.has(m[1]!)) names.add(m[1]!)
  }
  return [...names].sort()
}

export class Stacks {
  private readonly o: StacksOptions
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

  list(): StackInfo[] {
    return loadManifest().stacks.map((s) => info(this.onPort(s)))
  }

  private dockerHost(): string | undefined {
    return this.o.dockerHost?.()
  }

  /** DOCKER_HOST for the docker and compose commands, when the Docker host setting is set. */
  private dockerEnv(): Record<string, string> {
    const host = this.dockerHost()
    return host ? { DOCKER_HOST: host } : {}
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
    const native = this.native.get(name)?.databaseUrl ?? this.liveRecord(name)?.databaseUrl
    if (native) return native
    detectCompose({ host: this.dockerHost() })
    const db = (await projectContainers(this.project(name), this.dockerHost())).find(
      (c) => c.service === s.dbService && c.state === 'running',
    )
    const address = db ? await publishedAddress(db.id, loadManifest().database.port, this.dockerHost()) : null
    if (!address) {
      throw new ApiError(
        'unavailable',
        `stack ${name} is not running (no database container): start it first`,
      )
    }
    const { user, password, name: database } = loadManifest().database
    return `postgres://${user}:${password}@${address}/${database}`
  }

  private composeArgs(s: StackSpec, replicas: number): string[] {
    const files = [s.composeFile, ...(replicas > 1 ? [loadManifest().balancer.composeFile] : [])]
    return ['-p', projectFor(s.project, this.o.stateDir), ...files.flatMap((f) => ['-f', join(repoRoot, f)])]
  }

  async up(name: string, opts: UpOptions = {}): Promise<StackStatus> {
    const s = this.spec(name)
    const log = (line: string) => this.o.onLog?.(name, line)
    const port = opts.port ?? s.port
    const url = `http://127.0.0.1:${port}`
    const replicas = opts.replicas ?? 1
    if (!Number.isInteger(replicas) || replicas < 1 || replicas > MAX_REPLICAS) {
      throw new ApiError('bad-input', `replicas must be a whole number from 1 to ${MAX_REPLICAS}`, 'replicas')
    }
    const env = Object.fromEntries(Object.entries(opts.env ?? {}).map(([k, v]) => [k, String(v)]))
    if (opts.native) {
      if (replicas > 1) {
        throw new ApiError(
          'bad-input',
          'replicas need Docker: a native stack runs one server process',
          'replicas',
        )
      }
      return this.upNative(s, port, env, log)
    }
    const compose = detectCompose({ host: this.dockerHost() })
    const known = composeVariables(s)
    const unknown = Object.keys(env).filter((k) => !known.includes(k))
    if (unknown.length > 0) {
      throw new ApiError(
        'bad-input',
        `stack ${name} does not read ${unknown.join(', ')}; it reads ${known.join(', ')}`,
        'env',
      )
    }
    const project = this.project(name)
    if (!(await portFree(port))) {
      const holders = await portHolders(port, this.dockerHost())
      if (!holders.some((h) => h.project === project)) {
        const who = holders[0]
          ? ` by container ${holders[0].name}${holders[0].project ? ` of compose project ${holders[0].project}` : ''}`
          : ' by another program'
        throw new ApiError(
          'conflict',
          `port ${port} is already in use${who}; stop it, or give another port (--port / ${s.portEnv})`,
        )
      }
    }
    const lb = loadManifest().balancer
    const composeEnv = {
      ...env,
      // Behind the balancer each replica publishes an ephemeral port, the balancer the stack's.
      [s.portEnv]: replicas > 1 ? '' : String(port),
      [lb.portEnv]: String(port),
      [lb.replicasEnv]: String(replicas),
    }
    const args = [...compose.args, ...this.composeArgs(s, replicas)]
    const build = opts.build === false ? [] : ['--build']
    log(`${compose.cmd} ${args.join(' ')} up -d ${build.join(' ')} --scale ${s.appService}=${replicas}`)
    const up = await run(
      compose.cmd,
      [...args, 'up', '-d', ...build, '--remove-orphans', '--scale', `${s.appService}=${replicas}`],
      { env: { ...composeEnv, ...this.dockerEnv() }, onLine: log, timeoutMs: DOCKER_TIMEOUTS.up },
    )
    if (up.code !== 0) {
      await this.down(name).catch(() => undefined)
      throw new ApiError(
        up.timedOut ? 'unavailable' : 'internal',
        `stack ${name} did not start (${up.timedOut ? 'timed out' : `exit ${up.code}`}):\n${failureText(up, `${compose.cmd} ${compose.args.join(' ')} up`, DOCKER_TIMEOUTS.up)}`,
      )
    }
    const deadline = Date.now() + (this.o.healthTimeoutMs ?? 120_000)
    while (!(await healthy(url + s.healthPath))) {
      if (Date.now() > deadline) {
        const service = replicas > 1 ? [s.appService, lb.service] : [s.appService]
        const logs = await run(compose.cmd, [...args, 'logs', '--no-color', '--tail', '20', ...service], {
          timeoutMs: 20_000,
          env: this.dockerEnv(),
        })
        await this.down(name)
        throw new ApiError(
          'unavailable',
          `stack ${name} never answered ${url}${s.healthPath} within ${Math.round((this.o.healthTimeoutMs ?? 120_000) / 1000)} s; it was stopped (its database kept). Last log lines:\n${logs.lines.slice(-20).join('\n')}`,
        )
      }
      await new Promise((r) => setTimeout(r, 500))
    }
    log(`${name} is healthy at ${url}${replicas > 1 ? ` (${replicas} replicas behind the balancer)` : ''}`)
    // Our own /health probe answered; Docker's healthcheck lags by up to its interval. Wait for it
    // (same deadline), so that `stacks status` right after `up` says what `up` said.
    let status = await this.statusOf(s)
    while (status.state === 'starting' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250))
      status = await this.statusOf(s)
    }
    return { ...status, url, state: status.state === 'starting' ? 'healthy' : status.state }
  }

  private async upNative(
    s: StackSpec,
    port: number,
    env: Record<string, string>,
    log: (l: string) => void,
  ): Promise<StackStatus> {
    await this.down(s.name).catch(() => undefined)
    if (!(await portFree(port)))
      throw new ApiError(
        'conflict',
        `port ${port} is already in use by another program; stop it or give another port`,
      )
    let stack: NativeStack
    try {
      stack = await startNativeStack(s.name, { port, env, log, timeoutMs: this.o.healthTimeoutMs ?? 120_000 })
    } catch (err) {
      throw new ApiError(
        'unavailable',
        `native stack ${s.name} did not start: ${err instanceof Error ? err.message : String(err)}`,
      )
    }
    this.native.set(s.name, stack)
    const server = recordOf(stack.server.pid)
    const pg = stack.postgres ? recordOf(stack.postgres.pid) : null
    if (server) {
      writeRecord(this.o.stateDir, s.name, {
        url: stack.url,
        databaseUrl: stack.databaseUrl,
        server,
        postgres: pg && stack.postgres ? { ...pg, dir: stack.postgres.dir } : null,
        env,
      })
    }
    log(`${s.name} (native) is healthy at ${stack.url}`)
    return this.nativeStatus(s, stack.url)
  }

  /** A native stack's record, if its server is still the process that was recorded. */
  private liveRecord(name: string): NativeRecord | null {
    const record = readRecord(this.o.stateDir, name)
    return record && recordOf(record.server.pid)?.started === record.server.started ? record : null
  }

  async down(name: string, opts: DownOptions = {}): Promise<void> {
    const s = this.spec(name)
    const log = (line: string) => this.o.onLog?.(name, line)
    const native = this.native.get(name)
    const record = readRecord(this.o.stateDir, name)
    if (native) {
      await native.stop()
      this.native.delete(name)
    } else if (record) {
      // Started by another process (`cannonade stacks up --native` in a terminal): stop what it
      // recorded, if those pids still belong to the processes it started.
      const server = await stopRecorded(record.server, 'SIGTERM')
      if (server === 'reused') log(`pid ${record.server.pid} is another process now; not signalled`)
      if (record.postgres) {
        // SIGINT: PostgreSQL's fast shutdown.
        const pg = await stopRecorded(record.postgres, 'SIGINT')
        if (pg === 'reused') log(`pid ${record.postgres.pid} is another process now; not signalled`)
        if (pg === 'stopped' || pg === 'gone') rmSync(record.postgres.dir, { recursive: true, force: true })
      }
    }
    removeRecord(this.o.stateDir, name)
    if (native || !existsSync(join(repoRoot, s.composeFile))) return
    let compose
    try {
      compose = detectCompose({ host: this.dockerHost() })
    } catch {
      return // no Docker: nothing of this stack can be running in it
    }
    const r = await run(
      compose.cmd,
      [
        ...compose.args,
        ...this.composeArgs(s, 1),
        'down',
        '--remove-orphans',
        ...(opts.volumes ? ['-v'] : []),
      ],
      { onLine: log, timeoutMs: DOCKER_TIMEOUTS.down, env: this.dockerEnv() },
    )
    if (r.code !== 0)
      throw new ApiError(
        r.timedOut ? 'unavailable' : 'internal',
        `stack ${name} could not be removed:\n${failureText(r, `${compose.cmd} ${compose.args.join(' ')} down`, DOCKER_TIMEOUTS.down, 10)}`,
      )
  }

  private nativeStatus(s: StackSpec, url: string): StackStatus {
    // A native server runs with whatever the machine has: no limits.
    return {
      ...info(s),
      url,
      limits: { cpus: null, memory: null },
      state: 'native',
      project: null,
      replicas: 1,
      containers: [],
    }
  }

  private async statusOf(s: StackSpec): Promise<StackStatus> {
    const native = this.native.get(s.name)?.url ?? this.liveRecord(s.name)?.url
    if (native) return this.nativeStatus(s, native)
    const project = this.project(s.name)
    let containers: ContainerInfo[] = []
    let limits = new Map<string, { cpus: number | null; memoryBytes: number | null }>()
    let url = s.url
    try {
      detectCompose({ host: this.dockerHost() })
      containers = await projectContainers(project, this.dockerHost())
      limits = await containerLimits(
        containers.map((c) => c.id),
        this.dockerHost(),
      )
      const front = containers.find(
        (c) => c.service === loadManifest().balancer.service && c.state === 'running',
      )
      const app = containers.find((c) => c.service === s.appService && c.state === 'running')
      const address =
        (front ?? app) ? await publishedAddress((front ?? app)!.id, 8080, this.dockerHost()) : null
      if (address) url = `http://${address}`
    } catch {
      containers = []
    }
    const apps = containers.filter((c) => c.service === s.appService)
    const running = apps.filter((c) => c.state === 'running')
    const state: StackStatus['state'] =
      running.length === 0
        ? 'down'
        : running.some((c) => c.health === 'unhealthy')
          ? 'unhealthy'
          : running.every((c) => c.health === 'healthy')
            ? 'healthy'
            : 'starting'
    const appLimits = apps[0] ? limits.get(apps[0].id) : undefined
    return {
      ...info(s),
      url,
      // What Docker applies, not what the manifest says: a stack started with other limits shows them.
      limits: appLimits
        ? { cpus: appLimits.cpus, memory: formatMemory(appLimits.memoryBytes) }
        : info(s).limits,
      state,
      project,
      replicas: running.length,
      containers: containers.map((c) => ({
        name: c.name,
        service: c.service,
        state: c.state,
        health: c.health,
        cpus: limits.get(c.id)?.cpus ?? null,
        memory: formatMemory(limits.get(c.id)?.memoryBytes ?? null),
      })),
    }
  }

  /** How the stack runs now: whether it runs, where, with which settings and limits. */
  async snapshot(name: string): Promise<StackSnapshot> {
    const s = this.spec(name)
    const record = this.native.has(name) ? readRecord(this.o.stateDir, name) : this.liveRecord(name)
    const portOf = (url: string) => Number(new URL(url).port || 80)
    if (this.native.has(name) || record) {
      const url = this.native.get(name)?.url ?? record?.url ?? s.url
      return { name, running: true, native: true, env: record?.env ?? {}, replicas: 1, port: portOf(url) }
    }
    const status = await this.statusOf(s)
    if (status.state === 'down')
      return { name, running: false, native: false, env: {}, replicas: 1, port: s.port }
    const project = this.project(name)
    const containers = (await projectContainers(project)).filter((c) => c.state === 'running')
    const app = containers.find((c) => c.service === s.appService)
    const db = containers.find((c) => c.service === s.dbService)
    const known = new Set(composeVariables(s))
    const env: Record<string, string> = {}
    if (app) {
      for (const [k, v] of Object.entries(await containerEnv(app.id, this.dockerHost())))
        if (known.has(k)) env[k] = v
    }
    const limits = await containerLimits([app?.id, db?.id].filter((x): x is string => x !== undefined))
    const put = (cpuVar: string, memVar: string, id: string | undefined) => {
      const l = id ? limits.get(id) : undefined
      if (l?.cpus && known.has(cpuVar)) env[cpuVar] = String(l.cpus)
      const mem = formatMemory(l?.memoryBytes ?? null)
      if (mem && known.has(memVar)) env[memVar] = mem
    }
    put('CANNONADE_APP_CPUS', 'CANNONADE_APP_MEM', app?.id)
    put('CANNONADE_DB_CPUS', 'CANNONADE_DB_MEM', db?.id)
    return {
      name,
      running: true,
      native: false,
      env,
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
