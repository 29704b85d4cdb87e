// What a native stack started, written to the data folder so that `stacks down` from another
// process (the app, a second terminal) can stop it. A pid alone is not enough: after its process
// exits the kernel hands the number to another one, and `down` must never signal a stranger. So
// each process is recorded with its start time (/proc/PID/stat, or `ps -o lstart` elsewhere) and
// signalled only while the pid still has that start time.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readStat } from '../monitor/procfs.ts'

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
