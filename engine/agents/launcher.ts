// Launchers start a run's agents somewhere: local processes here (this file), Docker containers,
// a Swarm replicated job, a Kubernetes Indexed Job… Each only starts, follows and removes agents;
// everything else is the agents' and the coordinator's (README.md "Launchers").
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { childEnv } from '../env.ts'
import { privateDir } from '../paths.ts'
import { ENV, IPC_STORE } from './env.ts'
import { serveIpc } from './ipc.ts'
import type { MemoryStore } from './memory.ts'

export type LauncherEvent =
  /** A line an agent printed (index null: the platform's own line). */
  | { type: 'log'; index: number | null; line: string }
  /** An agent's process (container, pod) ended. */
  | { type: 'exit'; index: number | null; code: number | null; signal: string | null }

export interface Launcher {
  /** Its name in the run's distribution block: local, docker, swarm, kubernetes… */
  readonly kind: string
  /** Local processes may use the embedded store (over IPC); anything else reaches PostgreSQL. */
  readonly store: 'embedded' | 'postgres'
  /**
   * Start `count` agents. `env` is what every agent gets (engine/agents/env.ts agentEnv: the run and
   * the count); the launcher adds each agent's index, unless its platform numbers them (an
   * Indexed Job's JOB_COMPLETION_INDEX, a Swarm job's task slot), and the store's URL or secret file.
   */
  start(env: Readonly<Record<string, string>>, count: number): Promise<void>
  /** Receive the agents' output lines and exits, as the platform reports them. */
  follow(onEvent: (e: LauncherEvent) => void): void
  /** Remove what it started. Without `kill` the agents get a moment to end by themselves. */
  stop(opts?: { kill?: boolean }): Promise<void>
}

/**
 * Follows agent `index`'s process (a local agent, or the docker command attached to its
 * container): its output lines as logs, its end, or its failure to start (`failed`: the line's
 * start), as one exit. Resolves when it is gone.
 */
export function watchAgent(
  child: ChildProcess,
  index: number,
  failed: string,
  emit: (e: LauncherEvent) => void,
): Promise<void> {
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue
    createInterface({ input: stream }).on('line', (line) => emit({ type: 'log', index, line }))
  }
  return new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      emit({ type: 'exit', index, code, signal })
      resolve()
    })
    child.once('error', (err) => {
      emit({ type: 'log', index, line: `${failed}: ${err.message}` })
      emit({ type: 'exit', index, code: null, signal: null })
      resolve()
    })
  })
}

const BIN = fileURLToPath(new URL('../../bin/cannonade.mjs', import.meta.url))

/** Whether agents can be pinned to cores here (Linux with taskset). */
export function canPin(): boolean {
  return process.platform === 'linux' && spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0
}

export interface LocalLauncherOptions {
  /** The embedded store the agents reach over IPC; without it they get `storeUrl`. */
  embedded?: MemoryStore
  storeUrl?: string
  /** Agent i runs pinned to cpus[i] (taskset), when given. */
  cpus?: readonly number[]
  /** Agent i keeps its raw ledger in dataDir/agent-i/. */
  dataDir: string
  /** How long stop() waits for agents to end by themselves before killing them. */
  graceMs?: number
}

/** What every launcher shares: those who follow its agents' events. */
export abstract class FollowedLauncher {
  private readonly listeners: ((e: LauncherEvent) => void)[] = []

  follow(onEvent: (e: LauncherEvent) => void): void {
    this.listeners.push(onEvent)
  }

  protected emit(e: LauncherEvent): void {
    for (const l of this.listeners) l(e)
  }
}

/** `cannonade agent` processes on this machine. */
export class LocalLauncher extends FollowedLauncher implements Launcher {
  readonly kind = 'local'
  readonly store: 'embedded' | 'postgres'
  private readonly o: LocalLauncherOptions
  private readonly children: (ChildProcess | null)[] = []
  private readonly exited: Promise<void>[] = []

  constructor(o: LocalLauncherOptions) {
    super()
    if (!o.embedded && !o.storeUrl)
      throw new Error('a local launcher needs the embedded store or a store URL')
    this.o = o
    this.store = o.embedded ? 'embedded' : 'postgres'
  }

  async start(env: Readonly<Record<string, string>>, count: number): Promise<void> {
    for (let index = 0; index < count; index++) this.startOne(env, index)
  }

  private startOne(env: Readonly<Record<string, string>>, index: number): void {
    const dataDir = join(this.o.dataDir, `agent-${index}`)
    privateDir(dataDir) // its raw ledger: the data folder's files are the user's alone
    // What any child gets (engine/env.ts), and the agent's contract: no index or secret of ours.
    const agentEnv = childEnv({
      ...env,
      CANNONADE_AGENT_INDEX: String(index),
      [ENV.data]: dataDir,
      [ENV.storeUrl]: this.o.embedded ? IPC_STORE : this.o.storeUrl,
      // Under Electron, process.execPath is the app: it runs the command line as Node this way.
      ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}),
    })
    const cpu = this.o.cpus?.[index]
    const [file, args] =
      cpu !== undefined && process.platform === 'linux'
        ? ['taskset', ['-c', String(cpu), process.execPath, BIN, 'agent']]
        : [process.execPath, [BIN, 'agent']]
    const child = spawn(file, args, {
      env: agentEnv,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'advanced',
    })
    this.children[index] = child
    if (this.o.embedded) serveIpc(child, this.o.embedded)
    this.exited[index] = watchAgent(child, index, 'could not start', (e) => {
      if (e.type === 'exit') this.children[index] = null
      this.emit(e)
    })
  }

  async stop(opts: { kill?: boolean } = {}): Promise<void> {
    const grace = opts.kill ? 0 : (this.o.graceMs ?? 10_000)
    const all = Promise.all(this.exited)
    if (grace > 0) {
      let timer: NodeJS.Timeout | undefined
      await Promise.race([all, new Promise<void>((r) => (timer = setTimeout(r, grace)))])
      clearTimeout(timer)
    }
    for (const c of this.children) c?.kill('SIGKILL')
    await all
  }
}
