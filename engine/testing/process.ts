// The `cannonade` command as a child process (so a test can kill it like a user's kill -9 would),
// and waiting for a condition with a deadline: every wait in a test ends.
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'

export const CLI = fileURLToPath(new URL('../../bin/cannonade.mjs', import.meta.url))

export interface CliProcess {
  child: ChildProcess
  /** Exit code (or 128 + signal number), stdout and stderr, once it has exited. */
  result: Promise<{ code: number; signal: NodeJS.Signals | null; stdout: string; stderr: string }>
}

export function spawnCli(args: readonly string[], env: Record<string, string> = {}): CliProcess {
  return spawnCollected(process.execPath, [CLI, ...args], env)
}

/** Any command as a child process whose stdout and stderr are kept until it exits. */
export function spawnCollected(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
): CliProcess {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const result = new Promise<{ code: number; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.on('close', (code, signal) => resolve({ code: code ?? 128, signal, stdout, stderr })),
  )
  return { child, result }
}

/** Poll `check` every 50 ms until it returns a value other than undefined/false; throws after `ms`. */
export async function waitUntil<T>(check: () => T | undefined | false, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const v = check()
    if (v !== undefined && v !== false) return v
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** One query on a database another process is writing, through a short-lived read-only connection. */
export function peek<T>(dbPath: string, sql: string, ...params: unknown[]): T | undefined {
  let db: Database.Database | null = null
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true })
    db.pragma('busy_timeout = 2000')
    return db.prepare(sql).get(...params) as T | undefined
  } catch {
    return undefined // not created yet, or being migrated
  } finally {
    db?.close()
  }
}

/** A `cannonade serve` of a data folder: its process, the URL it printed (with the token), its stderr so far. */
export interface Served {
  child: ChildProcess
  url: URL
  stderr: () => string
}

export async function startServe(dir: string, env: Record<string, string> = {}): Promise<Served> {
  let stderr = ''
  const child = spawn(process.execPath, [CLI, 'serve', '--db', join(dir, 'cannonade.db')], {
    env: { ...process.env, CANNONADE_DATA_DIR: dir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
  const url = await new Promise<URL>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8')
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out)
      if (m?.[1]) resolve(new URL(m[1]))
    })
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)))
  })
  return { child, url, stderr: () => stderr }
}

/** Ends a serve started by startServe, if it still runs, and waits for it. */
export async function stopServe(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

/**
 * Threads of process `pid` at the idle scheduling class (SCHED_IDLE, policy 5 in
 * /proc/PID/task/TID/stat) or nice 19, each with the CPUs it may run on (Cpus_allowed_list).
 */
export function idleThreads(pid: number | 'self'): { tid: number; cpus: string }[] {
  const found: { tid: number; cpus: string }[] = []
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      // Fields after the command name (which may hold spaces) start at its closing parenthesis:
      // there, nice (field 19) is index 16 and policy (field 41) index 38.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (f[38] !== '5' && f[16] !== '19') continue
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8')
      found.push({ tid: Number(tid), cpus: /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1] ?? '' })
    } catch {
      // the thread ended meanwhile
    }
  }
  return found
}
