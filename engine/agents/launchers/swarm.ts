// Load agents as a Docker Swarm replicated job (README.md "Launchers"): one service of N tasks,
// each task's index its slot, the store's URL a Docker secret mounted as a file. The swarm
// schedules the tasks on its nodes; this launcher follows the service's logs and the tasks'
// ends, and removes the service and the secret at the end.
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { ApiError } from '../../api/errors.ts'
import { DEFAULT_AGENT_NETWORK, docker, dockerEnv, within, type ContainerLauncherOptions } from './docker.ts'
import { ENV } from '../env.ts'
import { ensureAgentImage } from './image.ts'
import { FollowedLauncher, type Launcher } from './launcher.ts'

const SECRET_PATH = '/run/secrets/cannonade-store-url'
/**
 * A task's index. Swarm numbers a replicated job's slots from 0 but renders slot 0 of
 * {{.Task.Slot}} as the node's ID (its templates fall back to the node for "no slot"): this maps
 * it back to 0.
 */
export const SWARM_SLOT_TEMPLATE = '{{if eq .Task.Slot .Node.ID}}0{{else}}{{.Task.Slot}}{{end}}'
/** Task states after which a task runs no more. */
const ENDED = new Set(['complete', 'failed', 'rejected', 'shutdown', 'orphaned', 'remove'])
const CALL_TIMEOUT_MS = 60_000
const POLL_MS = 1000

/** `docker service logs` prefixes each line with `<service>.<slot>.<task>@<node> | `. */
const LOG_LINE = /^\S+?\.(\d+)\.[0-9a-z]+@\S+\s+\|\s?(.*)$/

export class SwarmLauncher extends FollowedLauncher implements Launcher {
  readonly kind = 'swarm'
  readonly store = 'postgres' as const
  private readonly o: ContainerLauncherOptions
  private service: string | null = null
  private secret: string | null = null
  private logs: ChildProcess | null = null
  private readonly ended = new Set<number>()
  private count = 0
  private polling: Promise<void> = Promise.resolve()
  private stopped = false

  constructor(o: ContainerLauncherOptions) {
    super()
    this.o = o
  }

  async start(env: Readonly<Record<string, string>>, count: number): Promise<void> {
    this.count = count
    const info = await docker(
      ['info', '--format', '{{.Swarm.LocalNodeState}} {{.Swarm.ControlAvailable}}'],
      CALL_TIMEOUT_MS,
    )
    const [state = 'unknown', manager] = info.code === 0 ? (info.lines[0] ?? '').split(' ') : []
    if (state !== 'active' || manager !== 'true') {
      throw new ApiError(
        'unavailable',
        state === 'active'
          ? 'agents.on swarm: this Docker engine is a swarm worker: point DOCKER_HOST at a swarm manager'
          : `agents.on swarm: this Docker engine is in no swarm (${state}): run \`docker swarm init\`, or point DOCKER_HOST at a swarm manager`,
        'agents.on',
      )
    }
    const built = this.o.image === undefined
    const image =
      this.o.image ??
      (await ensureAgentImage({ onLine: (line) => this.emit({ type: 'log', index: null, line }) }))
    const runKey = env[ENV.run]!
    const label = `org.cannonade.run=${runKey}`
    const secret = `cannonade-store-${runKey}`
    const created = await docker(
      ['secret', 'create', '--label', label, secret, '-'],
      CALL_TIMEOUT_MS,
      this.o.storeUrl,
    )
    if (created.code !== 0)
      throw new ApiError('unavailable', `docker secret create: ${created.lines.join(' ')}`, 'agents.on')
    this.secret = secret
    const service = `cannonade-agents-${runKey}`
    const r = await docker(
      [
        'service',
        'create',
        '--detach',
        '--quiet',
        '--name',
        service,
        '--label',
        label,
        '--mode',
        'replicated-job',
        '--replicas',
        String(count),
        '--max-concurrent',
        String(count),
        // A failed agent is not replaced: its index joined, a replacement would be refused.
        '--restart-condition',
        'none',
        '--init',
        '--network',
        this.o.network ?? DEFAULT_AGENT_NETWORK,
        // The image built here is on this node only; one from a registry is resolved as usual.
        ...(built ? ['--no-resolve-image'] : []),
        '--secret',
        `source=${secret},target=${SECRET_PATH.slice('/run/secrets/'.length)},mode=0444`,
        ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
        '--env',
        `${ENV.storeUrlFile}=${SECRET_PATH}`,
        '--env',
        `CANNONADE_AGENT_SLOT=${SWARM_SLOT_TEMPLATE}`,
        '--env',
        `${ENV.host}={{.Node.Hostname}}/${service}.${SWARM_SLOT_TEMPLATE}`,
        image,
        'agent',
      ],
      CALL_TIMEOUT_MS,
    )
    if (r.code !== 0)
      throw new ApiError('unavailable', `docker service create: ${r.lines.join(' ')}`, 'agents.on')
    this.service = service
    this.followLogs(service)
    this.polling = this.pollTasks(service)
  }

  private followLogs(service: string): void {
    const child = spawn('docker', ['service', 'logs', '--follow', '--no-trunc', service], {
      env: dockerEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.logs = child
    child.on('error', (err) =>
      this.emit({ type: 'log', index: null, line: `docker service logs: ${err.message}` }),
    )
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        const m = LOG_LINE.exec(line)
        this.emit(m ? { type: 'log', index: Number(m[1]), line: m[2]! } : { type: 'log', index: null, line })
      })
    }
  }

  /** Each slot's first end, once: Swarm may still start another task in it (which is refused). */
  private async pollTasks(service: string): Promise<void> {
    while (!this.stopped && this.ended.size < this.count) {
      const ids = await docker(['service', 'ps', '--quiet', '--no-trunc', service], CALL_TIMEOUT_MS)
      if (ids.code === 0 && ids.lines.length) {
        const tasks = await docker(
          [
            'inspect',
            '--format',
            '{{.Slot}} {{.Status.State}} {{with .Status.ContainerStatus}}{{.ExitCode}}{{else}}-{{end}} {{.Status.Err}}',
            ...ids.lines,
          ],
          CALL_TIMEOUT_MS,
        )
        for (const line of tasks.code === 0 ? tasks.lines : []) {
          const [slotText = '', state = '', codeText = '', ...err] = line.split(' ')
          const index = Number(slotText)
          if (!ENDED.has(state) || !Number.isInteger(index) || this.ended.has(index)) continue
          this.ended.add(index)
          const error = err.join(' ').trim()
          if (error && state !== 'complete')
            this.emit({ type: 'log', index, line: `task ${state}: ${error}` })
          const code = /^\d+$/.test(codeText) ? Number(codeText) : null
          this.emit({ type: 'exit', index, code, signal: null })
        }
      }
      await new Promise((r) => setTimeout(r, POLL_MS))
    }
  }

  async stop(opts: { kill?: boolean } = {}): Promise<void> {
    const grace = opts.kill ? 0 : (this.o.graceMs ?? 10_000)
    if (grace > 0) await within(this.polling, grace)
    this.stopped = true
    await within(this.polling, CALL_TIMEOUT_MS)
    if (this.service) {
      const r = await docker(['service', 'rm', this.service], CALL_TIMEOUT_MS)
      if (r.code !== 0)
        this.emit({ type: 'log', index: null, line: `docker service rm: ${r.lines.join(' ')}` })
      // Swarm (20.10) leaves the containers of a job's ended tasks behind after the service
      // goes: those on this node are removed here (other nodes' stay with their engines).
      const left = await docker(
        ['ps', '--all', '--quiet', '--filter', `label=com.docker.swarm.service.name=${this.service}`],
        CALL_TIMEOUT_MS,
      )
      if (left.code === 0 && left.lines.length) {
        const rm = await docker(['rm', '--force', ...left.lines], CALL_TIMEOUT_MS)
        for (const line of rm.code === 0 ? [] : rm.lines.filter((l) => !/No such container/i.test(l)))
          this.emit({ type: 'log', index: null, line: `docker rm: ${line}` })
      }
      this.service = null
    }
    this.logs?.kill('SIGTERM')
    this.logs = null
    if (this.secret) {
      const r = await docker(['secret', 'rm', this.secret], CALL_TIMEOUT_MS)
      if (r.code !== 0)
        this.emit({ type: 'log', index: null, line: `docker secret rm: ${r.lines.join(' ')}` })
      this.secret = null
    }
  }
}
