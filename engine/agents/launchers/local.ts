// `cannonade agent` processes on this machine, each pinned to a core when asked (taskset), with
// the embedded store over their IPC channel or the PostgreSQL store's URL (README.md "Launchers").
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { childEnv } from '../../env.ts'
import { secretEnv } from '../../config/secret-vars.ts'
import { privateDir } from '../../paths.ts'
import { ENV, IPC_STORE } from '../env.ts'
import { serveIpc } from '../coordination/ipc.ts'
import type { MemoryStore } from '../coordination/memory.ts'
import { FollowedLauncher, watchAgent, type Launcher } from './launcher.ts'
const BIN = fileURLToPath(new URL('../../../bin/cannonade.mjs', import.meta.url))

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
    // What any child gets (engine/env.ts), and the agent's contract: no index or secret of ours but
    // the steps' secret variables, which the agent's runner writes into its requests.
    const agentEnv = childEnv({
      ...env,
      ...secretEnv(),
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
