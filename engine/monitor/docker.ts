import type Docker from 'dockerode'
import { dockerode } from '../lazy-deps.ts'
import { boundedAgent } from './docker-agent.ts'
import { dockerOptions, dockerWhere, type DockerHost } from './docker-host.ts'
import { ContainerProcesses, containerPids } from './docker-procs.ts'
import { cpuLimitOf, cpuPercent, ndjsonSplitter, parseStatsFrame } from './docker-stats.ts'
import type { StatsFrame } from './docker-stats.ts'
import { errorReporter, startLoop } from './loop.ts'
import type { Loop } from './loop.ts'
import type { DockerMonitorSpec } from '../config/schema-monitor.ts'
import { MonitorError } from './types.ts'
import type { ErrorHandler, Monitor, ResourceSample, SampleHandler } from './types.ts'

const PING_TIMEOUT_MS = 5000
/** Every other call to the engine (list, inspect, opening a stats stream) answers within this. */
const CALL_TIMEOUT_MS = 10_000
/** While a container is not streaming (stopped, restarting), inspect it every this many ticks. */
const RECHECK_EVERY_TICKS = 3
/** A compose project is listed again every this many ticks, to pick up scaled services. */
const RESCAN_EVERY_TICKS = 5

/** One watched container: the latest frame from its stats stream, read at each tick. */
type Watch = {
  id: string
  name: string
  state: string
  memoryLimitBytes: number | null
  cpuLimit: number | null
  latest: StatsFrame | null
  /** The frame the previous sample was computed from, and that sample's CPU. */
  used: StatsFrame | null
  lastCpu: number | null
  stream: NodeJS.ReadableStream | null
  checking: boolean
  /** With `processes: true`: the container's processes, each its own instance; null = the container as a whole. */
  procs: ContainerProcesses | null
}

/** Turns dockerode's errors (HTTP status, or a socket error code) into MonitorErrors. */
export function dockerError(
  error: unknown,
  spec: DockerMonitorSpec,
  what: string,
  host?: DockerHost,
): MonitorError {
  if (error instanceof MonitorError) return error
  const e = error as { statusCode?: number; code?: string; message?: string }
  if (e.statusCode === 404)
    return new MonitorError('not-found', `${what}: no such container`, { cause: error })
  if (
    typeof e.code === 'string' &&
    /^(ENOENT|ECONNREFUSED|EACCES|EPERM|ECONNRESET|ETIMEDOUT|EPIPE)$/.test(e.code)
  ) {
    const hint =
      e.code === 'EACCES' || e.code === 'EPERM'
        ? 'permission denied: add your user to the docker group'
        : 'is Docker running? (set the Docker host in Settings, or socketPath, if it listens elsewhere)'
    return new MonitorError(
      'docker-unavailable',
      `Docker engine not reachable at ${dockerWhere(host, spec.socketPath)} (${e.code}): ${hint}`,
      { cause: error },
    )
  }
  return new MonitorError('unreachable', `${what}: ${e.message ?? String(error)}`, { cause: error })
}

/**
 * CPU and memory of containers from the Docker Engine API: one stats *stream* per container (the
 * engine pushes a frame a second; polling one-shot stats would cost a request and a 1 s wait per
 * container per tick). Samples are emitted on our own tick, one per container, so every
 * container's series shares timestamps; a container that stops yields 'exited' samples.
 */
export class DockerMonitor implements Monitor {
  readonly #spec: DockerMonitorSpec
  readonly #target: string
  readonly #intervalMs: number
  readonly #callTimeoutMs: number
  readonly #docker: Docker
  readonly #host: DockerHost
  readonly #watches = new Map<string, Watch>()
  #loop: Loop | undefined
  #stopped = false
  #report: (e: MonitorError) => void = () => {}

  /** `host`: the Docker host setting (./docker-host.ts); a spec's socketPath wins over it. */
  constructor(
    spec: DockerMonitorSpec,
    target: string,
    intervalMs = 1000,
    host?: DockerHost,
    callTimeoutMs = CALL_TIMEOUT_MS,
  ) {
    this.#spec = spec
    this.#target = target
    this.#intervalMs = intervalMs
    this.#host = host
    this.#callTimeoutMs = callTimeoutMs
    const Dockerode = dockerode()
    const options = spec.socketPath ? { socketPath: spec.socketPath } : dockerOptions(host)
    // Every answer bounded (./docker-agent.ts), over the protocol docker-modem will speak (without
    // a setting, DOCKER_HOST's); ssh has an agent of its own, which dockerode makes.
    const speaks = spec.socketPath
      ? 'http'
      : (dockerOptions(host ?? process.env.DOCKER_HOST)?.protocol ?? 'http')
    const tls = speaks === 'https' || (!spec.socketPath && !host && process.env.DOCKER_TLS_VERIFY === '1')
    this.#docker = new Dockerode(
      speaks === 'ssh' ? options : ({ ...options, agent: boundedAgent(tls) } as Docker.DockerOptions),
    )
  }

  async start(onSample: SampleHandler, onError: ErrorHandler): Promise<void> {
    if (this.#loop) throw new MonitorError('config', 'docker monitor already started')
    this.#stopped = false
    this.#watches.clear()
    await this.#ping()
    const errors = errorReporter(onError)
    this.#report = (e) => errors.report(e)
    try {
      for (const id of await this.#resolve()) await this.#watch(id)
    } catch (error) {
      await this.stop() // close the streams of the containers found before the failure
      throw error
    }
    let tick = 0
    this.#loop = startLoop(
      this.#intervalMs,
      async () => {
        tick++
        if (this.#spec.project !== undefined && tick % RESCAN_EVERY_TICKS === 0) {
          for (const id of await this.#resolve().catch(() => [])) {
            if (!this.#watches.has(id)) await this.#watch(id)
          }
        }
        const t = Date.now()
        for (const w of this.#watches.values()) {
          if (!w.stream && tick % RECHECK_EVERY_TICKS === 0) void this.#recheck(w)
          if (w.procs && w.state === 'running') {
            if (tick % RESCAN_EVERY_TICKS === 0 || w.procs.stale()) await this.#listProcesses(w)
            if (w.procs) {
              for (const s of this.#processSamples(w, t)) onSample(s)
              continue
            }
          }
          onSample(this.#sample(w, t))
        }
      },
      (error) => errors.report(dockerError(error, this.#spec, 'docker monitor', this.#host)),
    )
  }

  async stop(): Promise<void> {
    this.#stopped = true
    await this.#loop?.stop()
    this.#loop = undefined
    for (const w of this.#watches.values()) this.#closeStream(w)
  }

  /**
   * A call to the Docker engine that cannot hang the monitor: aborted after `ms`, with a message
   * naming the engine and what was asked. A stream's timer stops once the stream is open.
   */
  async #call<T>(what: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const ms = this.#callTimeoutMs
    const ac = new AbortController()
    const timer = setTimeout(() => ac.abort(), ms)
    try {
      return await fn(ac.signal)
    } catch (error) {
      if (ac.signal.aborted)
        throw new MonitorError(
          'docker-unavailable',
          `the Docker engine at ${dockerWhere(this.#host, this.#spec.socketPath)} did not answer within ${ms / 1000} s (${what})`,
          { cause: error },
        )
      throw error
    } finally {
      clearTimeout(timer)
    }
  }

  async #ping(): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error('ping timed out'), { code: 'ETIMEDOUT' })),
        PING_TIMEOUT_MS,
      )
    })
    try {
      await Promise.race([this.#docker.ping(), timeout])
    } catch (error) {
      throw dockerError(error, this.#spec, 'Docker ping', this.#host)
    } finally {
      clearTimeout(timer)
    }
  }

  /** Container ids this spec names: one container, or a compose project's (service's) ones. */
  async #resolve(): Promise<string[]> {
    const { container, project, service } = this.#spec
    if (container !== undefined) return [container]
    const label = [`com.docker.compose.project=${project}`]
    if (service !== undefined) label.push(`com.docker.compose.service=${service}`)
    let list: Docker.ContainerInfo[]
    try {
      list = await this.#call(`listing compose project ${project}`, (abortSignal) =>
        this.#docker.listContainers({ all: true, filters: { label }, abortSignal }),
      )
    } catch (error) {
      throw dockerError(error, this.#spec, `listing compose project ${project}`, this.#host)
    }
    if (list.length === 0) {
      throw new MonitorError(
        'not-found',
        `no containers with label ${label.join(' and ')}: is the stack up? (docker compose -p ${project} ps)`,
      )
    }
    return list.map((c) => c.Id)
  }

  async #watch(idOrName: string): Promise<void> {
    let info: Docker.ContainerInspectInfo
    try {
      info = await this.#call(`inspecting container ${idOrName}`, (abortSignal) =>
        this.#docker.getContainer(idOrName).inspect({ abortSignal }),
      )
    } catch (error) {
      throw dockerError(error, this.#spec, `container ${idOrName}`, this.#host)
    }
    const w: Watch = {
      id: info.Id,
      name: info.Name.replace(/^\//, ''),
      state: info.State.Status,
      memoryLimitBytes: info.HostConfig.Memory ? info.HostConfig.Memory : null,
      cpuLimit: cpuLimitOf(info.HostConfig),
      latest: null,
      used: null,
      lastCpu: null,
      stream: null,
      checking: false,
      procs: this.#spec.processes ? new ContainerProcesses() : null,
    }
    this.#watches.set(w.id, w)
    if (w.state === 'running') await this.#openStream(w)
    // Listed now, so the first tick already has an interval for each process.
    if (w.procs && w.state === 'running') await this.#listProcesses(w)
  }

  async #openStream(w: Watch): Promise<void> {
    let stream: NodeJS.ReadableStream
    try {
      stream = await this.#call(`opening the stats stream of ${w.name}`, (abortSignal) => {
        const opts = { stream: true as const, abortSignal }
        return this.#docker.getContainer(w.id).stats(opts)
      })
    } catch (error) {
      this.#report(dockerError(error, this.#spec, `stats of ${w.name}`, this.#host))
      return
    }
    if (this.#stopped) return void this.#destroy(stream)
    w.stream = stream
    stream.setEncoding('utf8')
    stream.on(
      'data',
      ndjsonSplitter((raw) => {
        const frame = parseStatsFrame(raw)
        if (frame) {
          w.latest = frame
          w.state = 'running'
        } else if (w.state === 'running') {
          // Empty frames: the container stopped while we stream. Ask the engine what it is now.
          w.state = 'unknown'
          void this.#recheck(w)
        }
      }),
    )
    const ended = (): void => {
      if (w.stream !== stream) return
      w.stream = null
      // No stale figures while we find out why (stopped container, or the engine went away).
      w.state = 'unknown'
      w.latest = w.used = null
      w.lastCpu = null
      if (!this.#stopped) void this.#recheck(w)
    }
    stream.on('end', ended)
    stream.on('close', ended)
    stream.on('error', (error: unknown) => {
      ended()
      if (!this.#stopped)
        this.#report(dockerError(error, this.#spec, `stats stream of ${w.name}`, this.#host))
    })
  }

  /** Asks the engine for a container's state; reopens its stream when it runs again. */
  async #recheck(w: Watch): Promise<void> {
    if (w.checking || this.#stopped) return
    w.checking = true
    try {
      const info = await this.#call(`inspecting container ${w.name}`, (abortSignal) =>
        this.#docker.getContainer(w.id).inspect({ abortSignal }),
      )
      w.state = info.State.Status
      if (w.state !== 'running') {
        this.#closeStream(w)
        w.latest = w.used = null
        w.lastCpu = null
      } else if (!w.stream) {
        await this.#openStream(w)
      }
    } catch (error) {
      const e = dockerError(error, this.#spec, `container ${w.name}`, this.#host)
      if (e.code === 'not-found') {
        w.state = 'removed'
        this.#closeStream(w)
      } else {
        this.#report(e)
      }
    } finally {
      w.checking = false
    }
  }

  #sample(w: Watch, t: number): ResourceSample {
    const running = w.state === 'running' && w.latest !== null
    const frame = w.latest
    if (running && frame !== w.used && frame) {
      // Cumulative counters: the delta since the frame used last tick covers any skipped frame.
      w.lastCpu = cpuPercent(frame, w.used ?? undefined)
      w.used = frame
    }
    return {
      t,
      source: 'docker',
      target: this.#target,
      instance: w.name,
      cpuPercent: running ? w.lastCpu : null,
      memoryBytes: running && frame ? frame.memoryBytes : null,
      memoryLimitBytes: w.memoryLimitBytes,
      cpuLimit: w.cpuLimit,
      state: w.state,
    }
  }

  /** Asks `docker top` for the container's pids; falls back to the container as a whole if they are not visible here. */
  async #listProcesses(w: Watch): Promise<void> {
    try {
      const pids = await containerPids(this.#docker.getContainer(w.id))
      if (w.procs && !w.procs.follow(pids)) {
        w.procs = null
        this.#report(
          new MonitorError(
            'unsupported',
            `per-process figures of ${w.name} need the Docker engine on this machine (its pids are not in this /proc); sampling the container as a whole`,
          ),
        )
      }
    } catch (error) {
      this.#report(dockerError(error, this.#spec, `processes of ${w.name}`, this.#host))
    }
  }

  #processSamples(w: Watch, t: number): ResourceSample[] {
    return (w.procs?.sample() ?? []).map((p) => ({
      t,
      source: 'docker',
      target: this.#target,
      instance: `${w.name}/${p.pid}`,
      cpuPercent: p.cpuPercent,
      memoryBytes: p.memoryBytes,
      memoryLimitBytes: w.memoryLimitBytes,
      cpuLimit: w.cpuLimit,
      state: p.state,
    }))
  }

  #closeStream(w: Watch): void {
    const stream = w.stream
    w.stream = null
    if (stream) this.#destroy(stream)
  }

  #destroy(stream: NodeJS.ReadableStream): void {
    const s = stream as NodeJS.ReadableStream & { destroy?: () => void }
    s.destroy?.()
  }
}
