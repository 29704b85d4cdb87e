// One-click target stacks (targets/README.md): `up` builds and starts a compose project,
// streaming its output, waits for /health and returns the URL; `down` removes containers,
// networks and volumes, also after a failed `up`; `--native` runs the same server as a local
// process against a local PostgreSQL. Nothing is left running after a failure.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { join } from 'node:path'
import { ApiError } from '../api/errors.ts'
import type { StackInfo, StackStatus } from '../api/types.ts'
import {
  getStack,
  loadManifest,
  repoRoot,
  startNativeStack,
  type NativeStack,
  type StackSpec,
} from './native.ts'
import { detectCompose, run } from './compose.ts'

export interface StacksOptions {
  /** Where native stacks record their processes, so `down` from another process finds them. */
  stateDir: string
  onLog?: (stack: string, line: string) => void
  healthTimeoutMs?: number
}

export interface UpOptions {
  native?: boolean
  /** Environment for the app (POOL_SIZE, WORKERS, THREADS…), e.g. from a sweep. */
  env?: Record<string, string | number>
  port?: number
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

export class Stacks {
  private readonly o: StacksOptions
  private readonly native = new Map<string, NativeStack>()

  constructor(o: StacksOptions) {
    this.o = o
  }

  list(): StackInfo[] {
    return loadManifest().stacks.map(info)
  }

  private composeArgs(s: StackSpec): string[] {
    return ['-p', s.project, '-f', join(repoRoot, s.composeFile)]
  }

  async up(name: string, opts: UpOptions = {}): Promise<StackStatus> {
    const s = stackOrError(name)
    const log = (line: string) => this.o.onLog?.(name, line)
    const port = opts.port ?? s.port
    const url = `http://127.0.0.1:${port}`
    const env = Object.fromEntries(Object.entries(opts.env ?? {}).map(([k, v]) => [k, String(v)]))
    if (opts.native) return this.upNative(s, port, env, log)
    const compose = detectCompose()
    const current = (await this.status()).find((x) => x.name === name)
    const running = current && current.containers.some((c) => c.state === 'running')
    if (!running && !(await portFree(port))) {
      throw new ApiError(
        'conflict',
        `port ${port} is already in use by another program; stop it, or give another port (--port / ${s.portEnv})`,
      )
    }
    log(`${compose.cmd} ${compose.args.join(' ')} up -d --build (${s.project})`)
    const up = await run(compose.cmd, [...compose.args, ...this.composeArgs(s), 'up', '-d', '--build'], {
      env: { ...env, [s.portEnv]: String(port) },
      onLine: log,
    })
    if (up.code !== 0) {
      await this.down(name)
      throw new ApiError(
        'internal',
        `stack ${name} did not start (exit ${up.code}):\n${up.lines.slice(-15).join('\n')}`,
      )
    }
    const deadline = Date.now() + (this.o.healthTimeoutMs ?? 120_000)
    while (!(await healthy(url + s.healthPath))) {
      if (Date.now() > deadline) {
        const logs = await run(compose.cmd, [
          ...compose.args,
          ...this.composeArgs(s),
          'logs',
          '--no-color',
          '--tail',
          '20',
          s.appService,
        ])
        await this.down(name)
        throw new ApiError(
          'unavailable',
          `stack ${name} never answered ${url}${s.healthPath} within ${Math.round((this.o.healthTimeoutMs ?? 120_000) / 1000)} s; it was stopped. Last log lines:\n${logs.lines.slice(-20).join('\n')}`,
        )
      }
      await new Promise((r) => setTimeout(r, 500))
    }
    log(`${name} is healthy at ${url}`)
    // Our own /health probe answered; Docker's healthcheck may lag by its interval.
    return { ...(await this.statusOf(s)), url, state: 'healthy' }
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
    mkdirSync(this.o.stateDir, { recursive: true })
    writeFileSync(
      join(this.o.stateDir, `${s.name}.json`),
      JSON.stringify({ url: stack.url, pid: stack.server.pid ?? null, pg: stack.postgres?.dir ?? null }),
    )
    log(`${s.name} (native) is healthy at ${stack.url}`)
    return { ...info(s), url: stack.url, state: 'native', containers: [] }
  }

  async down(name: string): Promise<void> {
    const s = stackOrError(name)
    const native = this.native.get(name)
    const stateFile = join(this.o.stateDir, `${name}.json`)
    if (native) {
      await native.stop()
      this.native.delete(name)
    } else if (existsSync(stateFile)) {
      // Started by another process (`cannonade stacks up --native` in a terminal): stop what it recorded.
      const st = JSON.parse(readFileSync(stateFile, 'utf8')) as { pid: number | null }
      if (st.pid) {
        try {
          process.kill(st.pid, 'SIGTERM')
        } catch {
          /* already gone */
        }
      }
    }
    rmSync(stateFile, { force: true })
    if (native || existsSync(join(repoRoot, s.composeFile)) === false) return
    let compose
    try {
      compose = detectCompose()
    } catch {
      return // no Docker: nothing of this stack can be running in it
    }
    const r = await run(
      compose.cmd,
      [...compose.args, ...this.composeArgs(s), 'down', '-v', '--remove-orphans'],
      { onLine: (l) => this.o.onLog?.(name, l) },
    )
    if (r.code !== 0)
      throw new ApiError('internal', `stack ${name} could not be removed:\n${r.lines.slice(-10).join('\n')}`)
  }

  private async statusOf(s: StackSpec): Promise<StackStatus> {
    if (this.native.has(s.name))
      return { ...info(s), url: this.native.get(s.name)!.url, state: 'native', containers: [] }
    let containers: StackStatus['containers'] = []
    try {
      detectCompose()
      const r = await run('docker', [
        'ps',
        '-a',
        '--filter',
        `label=com.docker.compose.project=${s.project}`,
        '--format',
        '{{.Names}}\t{{.State}}\t{{.Status}}',
      ])
      containers = r.lines.map((l) => {
        const [cname = '', state = '', status = ''] = l.split('\t')
        const health = /\((healthy|unhealthy|health: starting)\)/.exec(status)?.[1] ?? null
        return { name: cname, state, health }
      })
    } catch {
      containers = []
    }
    const app = containers.find(
      (c) => c.name.includes(`-${s.appService}-`) || c.name.includes(`_${s.appService}_`),
    )
    const state: StackStatus['state'] =
      !app || app.state !== 'running'
        ? 'down'
        : app.health === 'healthy'
          ? 'healthy'
          : app.health === 'unhealthy'
            ? 'unhealthy'
            : 'starting'
    return { ...info(s), state, containers }
  }

  async status(): Promise<StackStatus[]> {
    return Promise.all(loadManifest().stacks.map((s) => this.statusOf(s)))
  }

  /** Stop native stacks this process started (the host closes). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.native.keys()].map((n) => this.down(n)))
  }
}
