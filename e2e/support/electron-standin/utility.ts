// ELECTRON STAND-IN (test harness, not Electron): `utilityProcess`. Electron's utility process is
// a Node.js child with `process.parentPort`; the stand-in forks a Node child (this Node, no loader
// flags) with parent-port.cjs preloaded to provide parentPort over Node's IPC channel, and the
// environment the app asked for (Electron's default, like here, is the parent's). What was asked
// (module, arguments, environment names) is recorded for the tests.
import { fork, type ChildProcess } from 'node:child_process'
import { EventEmitter } from 'node:events'
import type { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { record } from './state.ts'

const PARENT_PORT = fileURLToPath(new URL('./parent-port.cjs', import.meta.url))
const children = new Set<ChildProcess>()

export function killUtilityProcesses(): void {
  for (const c of children) c.kill('SIGKILL')
  children.clear()
}

class UtilityProcess extends EventEmitter {
  readonly #child: ChildProcess
  readonly stdout: Readable | null
  readonly stderr: Readable | null

  constructor(modulePath: string, args: string[], options: Record<string, unknown>) {
    super()
    const env = (options.env as Record<string, string> | undefined) ?? { ...process.env }
    const piped = options.stdio === 'pipe'
    this.#child = fork(modulePath, args, {
      env,
      execArgv: ['--require', PARENT_PORT],
      stdio: piped ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
      ...(typeof options.cwd === 'string' ? { cwd: options.cwd } : {}),
    })
    children.add(this.#child)
    this.stdout = this.#child.stdout
    this.stderr = this.#child.stderr
    record('utility-process', {
      modulePath,
      args,
      serviceName: options.serviceName,
      envNames: Object.keys(env).sort(),
      // Kept only in this process's memory, for the tests' "no secret reached it" checks.
      envValues: Object.values(env),
      pid: this.#child.pid,
    })
    this.#child.on('spawn', () => this.emit('spawn'))
    this.#child.on('message', (message: unknown) => this.emit('message', message))
    this.#child.on('exit', (code, signal) => {
      children.delete(this.#child)
      this.emit('exit', code ?? (signal ? 1 : 0))
    })
  }

  get pid(): number | undefined {
    return this.#child.pid
  }

  postMessage(message: unknown): void {
    if (this.#child.connected) this.#child.send(message as object)
  }

  kill(): boolean {
    return this.#child.kill('SIGTERM')
  }
}

export const utilityProcess = {
  fork(modulePath: string, args: string[] = [], options: Record<string, unknown> = {}): UtilityProcess {
    return new UtilityProcess(modulePath, args, options)
  },
}
