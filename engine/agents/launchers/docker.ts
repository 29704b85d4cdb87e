// Load agents as Docker containers (README.md "Launchers"): one `docker run` per agent, attached,
// so its output and its exit code come back through the docker command the way a local agent's
// do. Each container is named after the run and its index and removed at the end. The store's
// URL reaches the containers through the docker command's environment (`-e NAME` without a
// value), never its argv: every user of a machine can read the process list.
import { spawn, type ChildProcess } from 'node:child_process'
import { runCommand } from '../../command.ts'
import { childEnv } from '../../env.ts'
import { ENV } from '../env.ts'
import { ensureAgentImage } from './image.ts'
import { FollowedLauncher, watchAgent, type Launcher } from './launcher.ts'

/** Agents reach the target and the store as this machine does, unless told otherwise. */
export const DEFAULT_AGENT_NETWORK = 'host'

export interface ContainerLauncherOptions {
  /** The coordination store (PostgreSQL) as the agents reach it. */
  storeUrl: string
  /** An image of the agent (e.g. pushed to a registry); default: built from this repository. */
  image?: string
  /** The Docker network the agents join (default host: they see this machine's 127.0.0.1). */
  network?: string
  /** How long stop() waits for agents to end by themselves before removing them. */
  graceMs?: number
}

const REMOVE_TIMEOUT_MS = 60_000

/** What the docker command needs of our environment (which engine, its TLS), plus `extra`. */
export function dockerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const own = Object.entries(process.env).filter(([k]) => k.startsWith('DOCKER_'))
  return childEnv({ ...Object.fromEntries(own), ...extra })
}

/** A docker call with a deadline (engine/command.ts); `input` goes to its stdin. */
export function docker(args: string[], timeoutMs: number, input?: string) {
  return runCommand('docker', args, { timeoutMs, ...(input !== undefined ? { input } : {}) })
}

export class DockerLauncher extends FollowedLauncher implements Launcher {
  readonly kind = 'docker'
  readonly store = 'postgres' as const
  private readonly o: ContainerLauncherOptions
  private readonly names: string[] = []
  private readonly children: (ChildProcess | null)[] = []
  private readonly exited: Promise<void>[] = []

  constructor(o: ContainerLauncherOptions) {
    super()
    this.o = o
  }

  async start(env: Readonly<Record<string, string>>, count: number): Promise<void> {
    const image =
      this.o.image ??
      (await ensureAgentImage({ onLine: (line) => this.emit({ type: 'log', index: null, line }) }))
    for (let index = 0; index < count; index++) this.startOne(env, index, image)
  }

  private startOne(env: Readonly<Record<string, string>>, index: number, image: string): void {
    const name = `cannonade-agent-${env[ENV.run]}-${index}`
    this.names[index] = name
    const args = [
      'run',
      '--name',
      name,
      '--label',
      `org.cannonade.run=${env[ENV.run]}`,
      '--network',
      this.o.network ?? DEFAULT_AGENT_NETWORK,
      // PID 1 that forwards signals and reaps: the agent is a plain Node process.
      '--init',
      ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
      '--env',
      `CANNONADE_AGENT_INDEX=${index}`,
      '--env',
      `${ENV.host}=${name}`,
      // The value comes from the docker command's own environment.
      '--env',
      ENV.storeUrl,
      image,
      'agent',
    ]
    const child = spawn('docker', args, {
      env: dockerEnv({ [ENV.storeUrl]: this.o.storeUrl }),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.children[index] = child
    this.exited[index] = watchAgent(child, index, 'could not start docker', (e) => {
      if (e.type === 'exit') this.children[index] = null
      this.emit(e)
    })
  }

  async stop(opts: { kill?: boolean } = {}): Promise<void> {
    const grace = opts.kill ? 0 : (this.o.graceMs ?? 10_000)
    const all = Promise.all(this.exited)
    if (grace > 0) await within(all, grace)
    // Removing a container ends its attached docker command too; one that hangs is killed.
    const names = this.names.filter(Boolean)
    if (names.length) {
      const r = await docker(['rm', '--force', ...names], REMOVE_TIMEOUT_MS)
      for (const line of r.code === 0 ? [] : r.lines.filter((l) => !/No such container/i.test(l)))
        this.emit({ type: 'log', index: null, line: `docker rm: ${line}` })
    }
    if (!(await within(all, 10_000))) for (const c of this.children) c?.kill('SIGKILL')
    await all
  }
}

/** Whether `p` settled within `ms`. */
export async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const done = await Promise.race([
    p.then(() => true),
    new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms))),
  ])
  clearTimeout(timer)
  return done
}
