// Native stacks: a sample server as a local process against a local PostgreSQL (postgres.ts),
// without Docker: `stacks up --native`, and targets/contract.pg.test.ts. Everything it needs about
// a stack comes from targets/stacks.json (manifest.ts). Plain Node (no electron, no dependencies).
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { childEnv } from '../env.ts'
import { assertStackEnv } from '../config/stack-env.ts'
import { getStack, loadManifest, repoRoot, type NativeBuild, type StackSpec } from './manifest.ts'
import { freePort, runOk, seedDatabase, startPostgres } from './postgres.ts'
import type { LocalPostgres, Log, StartPostgresOptions } from './postgres.ts'

const quiet: Log = () => {}

// --- building -----------------------------------------------------------------------------------

function newestMtime(p: string): number {
  const st = fs.statSync(p, { throwIfNoEntry: false })
  if (!st) return 0
  if (!st.isDirectory()) return st.mtimeMs
  let newest = st.mtimeMs
  for (const entry of fs.readdirSync(p)) {
    if (entry === 'target' || entry === 'node_modules' || entry.startsWith('.')) continue
    newest = Math.max(newest, newestMtime(path.join(p, entry)))
  }
  return newest
}

/** True when some output is missing or older than the newest input. */
export function needsBuild(build: NativeBuild, root: string = repoRoot): boolean {
  const inputs = Math.max(...build.inputs.map((p) => newestMtime(path.join(root, p))))
  for (const out of build.outputs) {
    const st = fs.statSync(path.join(root, out), { throwIfNoEntry: false })
    if (!st || st.mtimeMs < inputs) return true
  }
  return false
}

const builds = new Map<string, Promise<boolean>>()

/**
 * Builds the stack's native artifacts when they are missing or stale (Java: `mvn package` into
 * targets/_java/target). Stacks sharing one build (jetty, tomcat) build once. Resolves to whether
 * a build ran.
 */
export function buildNative(stack: StackSpec, opts: { force?: boolean; log?: Log } = {}): Promise<boolean> {
  const build = stack.native.build
  if (!build) return Promise.resolve(false)
  const key = `${build.cwd}\0${build.command.join('\0')}`
  const pending = builds.get(key)
  if (pending && !opts.force) return pending
  const log = opts.log ?? quiet
  const job = (async () => {
    if (!opts.force && !needsBuild(build)) {
      log(`[build] ${stack.name}: up to date`)
      return false
    }
    log(`[build] ${stack.name}: ${build.command.join(' ')} (in ${build.cwd})`)
    const began = Date.now()
    await runOk(build.command, `build of ${stack.name}`, { cwd: path.join(repoRoot, build.cwd) })
    // Maven leaves an unchanged jar's mtime alone: touch outputs so the next check sees them fresh.
    const now = new Date()
    for (const out of build.outputs) fs.utimesSync(path.join(repoRoot, out), now, now)
    log(`[build] ${stack.name}: done in ${((Date.now() - began) / 1000).toFixed(1)} s`)
    return true
  })()
  builds.set(key, job)
  job.catch(() => builds.delete(key))
  return job
}

// --- servers ------------------------------------------------------------------------------------

export interface ServerProcess {
  stack: string
  pid: number
  port: number
  url: string
  /** Where its HTTPS listens (TLS=on), else null. */
  tlsPort: number | null
  child: ChildProcess
  /** The last ~64 KiB of the server's stdout and stderr. */
  output(): string
  stop(): Promise<void>
}

export interface StartServerOptions {
  databaseUrl: string
  port?: number
  /** Where HTTPS listens when `env` has TLS=on (default: a free port). */
  tlsPort?: number
  /** Extra environment (POOL_SIZE, WORKERS, THREADS, HASH_ITERATIONS, ...), over the manifest's. */
  env?: Record<string, string>
  log?: Log
}

/** Spawns the stack's server (not waiting for health: see waitForHealth / startNativeServer). */
export async function spawnServer(stack: StackSpec, opts: StartServerOptions): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort())
  const [first, ...args] = stack.native.command
  if (!first) throw new Error(`stack ${stack.name} has no native command`)
  const cmd = first === 'node' ? process.execPath : first
  // A config's env never reaches the server unchecked (NODE_OPTIONS, LD_PRELOAD…), whoever calls.
  if (opts.env) assertStackEnv(stack.name, opts.env)
  const tlsPort = opts.env?.['TLS'] === 'on' ? (opts.tlsPort ?? (await freePort())) : null
  // Only what a server needs to run, never the launcher's secrets (PGPASSWORD…): engine/env.ts.
  const env: NodeJS.ProcessEnv = {
    ...childEnv(),
    ...stack.native.env,
    ...opts.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    ...(tlsPort !== null ? { TLS_PORT: String(tlsPort) } : {}),
    DATABASE_URL: opts.databaseUrl,
  }
  const child = spawn(cmd, args, {
    cwd: path.join(repoRoot, stack.native.cwd),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const keep = (d: Buffer) => {
    out += d.toString()
    if (out.length > 65536) out = out.slice(-65536)
    if (opts.log) for (const line of d.toString().split('\n')) if (line) opts.log(`[${stack.name}] ${line}`)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  // Every 'error' has a listener, not only the first: a later one (a failed kill) must not end the engine.
  child.on('error', () => undefined)
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve())
    child.once('error', (err) => reject(new Error(`cannot start ${stack.name} (${cmd}): ${err.message}`)))
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return {
    stack: stack.name,
    pid: child.pid ?? -1,
    port,
    url: `http://127.0.0.1:${port}`,
    tlsPort,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
    },
  }
}

/**
 * Polls `url` until it answers 200; throws after `timeoutMs`, or at once when `server` exits.
 * Resolves to the milliseconds waited.
 */
export async function waitForHealth(
  url: string,
  opts: { timeoutMs?: number; server?: ServerProcess; intervalMs?: number } = {},
): Promise<number> {
  const began = Date.now()
  const deadline = began + (opts.timeoutMs ?? 60_000)
  let last = 'no answer yet'
  for (;;) {
    const child = opts.server?.child
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(
        `${opts.server?.stack} exited (${child.exitCode ?? child.signalCode}) before ${url} was healthy:\n${opts.server?.output().slice(-4000)}`,
      )
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) })
      await res.arrayBuffer()
      if (res.status === 200) return Date.now() - began
      last = `HTTP ${res.status}`
    } catch (err) {
      last = (err as Error).message
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${url} not healthy after ${opts.timeoutMs ?? 60_000} ms (${last})${opts.server ? `:\n${opts.server.output().slice(-4000)}` : ''}`,
      )
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 100))
  }
}

/** spawnServer + waitForHealth; stops the process if it never becomes healthy. */
export async function startNativeServer(
  stack: StackSpec,
  opts: StartServerOptions & { timeoutMs?: number },
): Promise<ServerProcess> {
  const server = await spawnServer(stack, opts)
  try {
    await waitForHealth(server.url + stack.healthPath, { server, timeoutMs: opts.timeoutMs ?? 60_000 })
  } catch (err) {
    await server.stop()
    throw err
  }
  return server
}

export interface NativeStack {
  stack: StackSpec
  url: string
  port: number
  databaseUrl: string
  server: ServerProcess
  /** The throwaway cluster, when the launcher made one (no databaseUrl given). */
  postgres: LocalPostgres | null
  stop(): Promise<void>
}

export interface StartNativeStackOptions {
  /** Use this database (it is seeded, idempotently) instead of starting a throwaway cluster. */
  databaseUrl?: string
  port?: number
  /** Where HTTPS listens when `env` has TLS=on (default: a free port). */
  tlsPort?: number
  env?: Record<string, string>
  postgres?: StartPostgresOptions
  timeoutMs?: number
  log?: Log
}

/** Everything `stacks up --native` needs: PostgreSQL, seed, build, server, health. */
export async function startNativeStack(
  name: string,
  opts: StartNativeStackOptions = {},
): Promise<NativeStack> {
  const stack = getStack(name)
  const build = buildNative(stack, { ...(opts.log ? { log: opts.log } : {}) })
  let postgres: LocalPostgres | null = null
  let databaseUrl = opts.databaseUrl
  try {
    if (!databaseUrl) {
      postgres = await startPostgres({ ...opts.postgres, ...(opts.log ? { log: opts.log } : {}) })
      await postgres.createDatabase('cannonade')
      databaseUrl = postgres.url('cannonade')
    }
    await seedDatabase(databaseUrl, path.join(repoRoot, loadManifest().seed), postgres?.pgBin)
    await build
    const server = await startNativeServer(stack, {
      databaseUrl,
      ...(opts.port !== undefined ? { port: opts.port } : {}),
      ...(opts.tlsPort !== undefined ? { tlsPort: opts.tlsPort } : {}),
      ...(opts.env ? { env: opts.env } : {}),
      ...(opts.log ? { log: opts.log } : {}),
      ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    })
    const pg = postgres
    return {
      stack,
      url: server.url,
      port: server.port,
      databaseUrl,
      server,
      postgres: pg,
      async stop() {
        await server.stop()
        await pg?.stop()
      },
    }
  } catch (err) {
    await build.catch(() => {})
    await postgres?.stop()
    throw err
  }
}
