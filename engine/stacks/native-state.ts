// Native stacks as `Stacks` (stacks.ts) runs them: started (native.ts) and recorded in the data
// folder, so that `stacks down` from another process (the app, a second terminal) can stop them. A
// pid alone is not enough: after its process exits the kernel hands the number to another one, and
// `down` must never signal a stranger. So each process is recorded with its start time
// (/proc/PID/stat, or `ps -o lstart` elsewhere) and signalled only while the pid still has that
// start time.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ApiError } from '../api/errors.ts'
import { readStat } from '../monitor/procfs.ts'
import type { StackSpec } from './manifest.ts'
import { startNativeStack, type NativeStack } from './native.ts'
import { portFree } from './postgres.ts'

export interface ProcessRecord {
  pid: number
  /** Kernel start time (Linux, clock ticks since boot) or `ps -o lstart` text elsewhere. */
  started: string
}

export interface NativeRecord {
  url: string
  databaseUrl: string
  server: ProcessRecord
  /** The local PostgreSQL cluster the stack started, and its folder. */
  postgres: (ProcessRecord & { dir: string }) | null
  /** The settings it was started with (POOL_SIZE…), so a sweep can start it the same way again. */
  env?: Record<string, string>
}

/** The process's start time, or null when no process has this pid (or it is not ours to read). */
export function startedOf(pid: number): string | null {
  if (existsSync('/proc/self/stat')) {
    const stat = readStat(pid)
    return stat && stat.state !== 'Z' ? String(stat.startTime) : null
  }
  const r = spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 5000 })
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : null
}

export function recordOf(pid: number): ProcessRecord | null {
  const started = startedOf(pid)
  return started === null ? null : { pid, started }
}

/** True while the recorded process is still the one that was recorded. */
export function isSame(p: ProcessRecord): boolean {
  return startedOf(p.pid) === p.started
}

export function writeRecord(stateDir: string, name: string, record: NativeRecord): void {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 })
  writeFileSync(join(stateDir, `${name}.json`), JSON.stringify(record), { mode: 0o600 })
}

export function readRecord(stateDir: string, name: string): NativeRecord | null {
  try {
    const raw = JSON.parse(readFileSync(join(stateDir, `${name}.json`), 'utf8')) as Partial<NativeRecord>
    if (typeof raw.url !== 'string' || typeof raw.server?.pid !== 'number') return null
    return raw as NativeRecord
  } catch {
    return null // absent, or written by an older version without start times: nothing we may signal
  }
}

export function removeRecord(stateDir: string, name: string): void {
  rmSync(join(stateDir, `${name}.json`), { force: true })
}

/**
 * Signals a recorded process if it is still the one recorded, and waits (up to `waitMs`) for it
 * to exit. Resolves to what happened, for the log.
 */
export async function stopRecorded(
  p: ProcessRecord,
  signal: NodeJS.Signals,
  waitMs = 10_000,
): Promise<'stopped' | 'gone' | 'reused' | 'still running'> {
  if (startedOf(p.pid) === null) return 'gone'
  if (!isSame(p)) return 'reused'
  try {
    process.kill(p.pid, signal)
  } catch {
    return 'gone'
  }
  const deadline = Date.now() + waitMs
  while (Date.now() < deadline) {
    if (!isSame(p)) return 'stopped'
    await new Promise((r) => setTimeout(r, 50))
  }
  return 'still running'
}

/** A native stack's record, if its server is still the process that was recorded. */
export function liveRecord(stateDir: string, name: string): NativeRecord | null {
  const record = readRecord(stateDir, name)
  return record && recordOf(record.server.pid)?.started === record.server.started ? record : null
}

/** Starts a native stack on `port`; errors say why in words (the port taken, what did not start). */
export async function startNative(
  s: StackSpec,
  o: {
    port: number
    tlsPort: number | null
    env: Record<string, string>
    log: (line: string) => void
    timeoutMs: number
  },
): Promise<NativeStack> {
  for (const port of [o.port, ...(o.tlsPort !== null ? [o.tlsPort] : [])])
    if (!(await portFree(port)))
      throw new ApiError(
        'conflict',
        `port ${port} is already in use by another program; stop it or give another port`,
      )
  try {
    const { tlsPort, ...rest } = o
    return await startNativeStack(s.name, { ...rest, ...(tlsPort !== null ? { tlsPort } : {}) })
  } catch (err) {
    throw new ApiError(
      'unavailable',
      `native stack ${s.name} did not start: ${err instanceof Error ? err.message : String(err)}`,
    )
  }
}

/** Records what `stack` started, with the settings it runs with, for `down` and a sweep's restore. */
export function recordNative(stateDir: string, stack: NativeStack, env: Record<string, string>): void {
  const server = recordOf(stack.server.pid)
  const pg = stack.postgres ? recordOf(stack.postgres.pid) : null
  if (!server) return
  writeRecord(stateDir, stack.stack.name, {
    url: stack.url,
    databaseUrl: stack.databaseUrl,
    server,
    postgres: pg && stack.postgres ? { ...pg, dir: stack.postgres.dir } : null,
    env,
  })
}

/**
 * Stops what another process recorded for the stack (`cannonade stacks up --native` in a
 * terminal), if those pids still belong to the processes it started; its cluster's folder goes too.
 */
export async function stopRecordedStack(
  stateDir: string,
  name: string,
  log: (line: string) => void,
): Promise<void> {
  const record = readRecord(stateDir, name)
  if (!record) return
  const server = await stopRecorded(record.server, 'SIGTERM')
  if (server === 'reused') log(`pid ${record.server.pid} is another process now; not signalled`)
  if (record.postgres) {
    // SIGINT: PostgreSQL's fast shutdown.
    const pg = await stopRecorded(record.postgres, 'SIGINT')
    if (pg === 'reused') log(`pid ${record.postgres.pid} is another process now; not signalled`)
    if (pg === 'stopped' || pg === 'gone') rmSync(record.postgres.dir, { recursive: true, force: true })
  }
}
