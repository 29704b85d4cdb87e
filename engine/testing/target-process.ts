// The counting target (target.ts) in a process of its own: its CPU is its own (a process monitor
// reads it, and the noise meter counts it as the run's, not as "other processes"), and a test can
// ask it for its log of served requests (each correlation id and its service time) at any time.
// Plus a CPU hog a test switches on and off: a busy loop in a child process of its own.
import { fork, spawn, type ChildProcess } from 'node:child_process'
import { setPriority } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { TargetOptions } from './target.ts'

const MAIN = fileURLToPath(new URL('./target-main.ts', import.meta.url))

export interface TargetProcess {
  url: string
  pid: number
  /** Every answered request so far: its correlation id and how long the server held it (µs). */
  served(): Promise<{ id: string; us: number }[]>
  close(): Promise<void>
}

type FromTarget = { type: 'ready'; url: string } | { type: 'served'; served: { id: string; us: number }[] }

export async function startTargetProcess(opts: TargetOptions = {}): Promise<TargetProcess> {
  const child = fork(MAIN, [JSON.stringify(opts)], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const next = (type: FromTarget['type']) =>
    new Promise<FromTarget>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the target process did not answer (${type}) in 30 s`)),
        30_000,
      )
      const on = (m: FromTarget) => {
        if (m.type !== type) return
        clearTimeout(timer)
        child.off('message', on)
        resolve(m)
      }
      child.on('message', on)
    })
  const ready = (await next('ready')) as Extract<FromTarget, { type: 'ready' }>
  return {
    url: ready.url,
    pid: child.pid ?? -1,
    served: async () => {
      const answer = next('served')
      child.send({ type: 'served' })
      return ((await answer) as Extract<FromTarget, { type: 'served' }>).served
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/**
 * Give a process this scheduling priority (os.setPriority: −20 highest, 19 lowest), saying why when
 * it cannot (not permitted): a test that measures against a machine others share keeps its own
 * processes from waiting behind theirs.
 */
export function prioritize(pid: number, priority: number): string | null {
  try {
    setPriority(pid, priority)
    return null
  } catch (err) {
    return `could not set process ${pid} to priority ${priority}: ${err instanceof Error ? err.message : String(err)}`
  }
}

/** A busy loop in a process of its own: a CPU other than the run's, switched on and off. */
export class CpuHog {
  /** The priority its process gets (prioritize), if any. */
  readonly priority: number | null
  private child: ChildProcess | null = null
  /** Seconds it has been on, and how many times it was switched on. */
  onMs = 0
  switches = 0
  private since = 0

  constructor(priority: number | null = null) {
    this.priority = priority
  }

  get on(): boolean {
    return this.child !== null
  }

  start(): void {
    if (this.child) return
    this.child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' })
    if (this.priority !== null && this.child.pid) prioritize(this.child.pid, this.priority)
    this.since = Date.now()
    this.switches++
  }

  stop(): void {
    if (!this.child) return
    this.child.kill('SIGKILL')
    this.child = null
    this.onMs += Date.now() - this.since
  }
}
