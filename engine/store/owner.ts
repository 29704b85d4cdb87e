// Is the process that owns a run still alive? A pid alone does not say: pids are recycled, so a
// run whose CLI was killed could look alive for as long as any other process holds that number.
// On Linux a process is identified by its pid and its start identity: the boot id and the start
// time in clock ticks since boot (/proc/PID/stat field 22). Elsewhere, the pid is all there is.
import { readFileSync } from 'node:fs'

export interface ProcessRef {
  pid: number
  /** `<boot id>:<start ticks>` on Linux, null where /proc does not exist. */
  start: string | null
}

let bootId: string | null | undefined

function currentBootId(): string | null {
  if (bootId === undefined) {
    try {
      bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
    } catch {
      bootId = null
    }
  }
  return bootId
}

/** Field 22 of /proc/PID/stat; the command name (field 2) may hold spaces and parentheses. */
export function parseStartTicks(stat: string): string | null {
  const close = stat.lastIndexOf(')')
  if (close < 0) return null
  // After the name: field 3 (state) onwards, so field 22 is at index 22 - 3.
  const fields = stat
    .slice(close + 1)
    .trim()
    .split(/\s+/)
  const ticks = fields[22 - 3]
  return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : null
}

/** Field 3 of /proc/PID/stat: R, S, D, Z (a zombie: exited, not yet reaped), X (dead)… */
export function parseState(stat: string): string | null {
  const close = stat.lastIndexOf(')')
  return close < 0
    ? null
    : (stat
        .slice(close + 1)
        .trim()
        .split(/\s+/)[0] ?? null)
}

/**
 * The start identity of a running process, or null (no /proc, no such process, or one that has
 * exited: a zombie waiting for its parent to reap it runs nothing and never will).
 */
export function processStart(pid: number): string | null {
  const boot = currentBootId()
  if (boot === null) return null
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const state = parseState(stat)
    if (state === 'Z' || state === 'X' || state === 'x') return null
    const ticks = parseStartTicks(stat)
    return ticks === null ? null : `${boot}:${ticks}`
  } catch {
    return null
  }
}

/** Linux: the process is a zombie or dead (it runs nothing); false where /proc does not say. */
function exited(pid: number): boolean {
  try {
    const state = parseState(readFileSync(`/proc/${pid}/stat`, 'utf8'))
    return state === 'Z' || state === 'X' || state === 'x'
  } catch {
    return false
  }
}

export function thisProcess(): ProcessRef {
  return { pid: process.pid, start: processStart(process.pid) }
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0)
    // kill(0) succeeds on a zombie: it is gone all the same.
    return !exited(pid)
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Whether the process recorded as `ref` is still the one running: same pid and, where the start
 * identity was recorded, the same start (a different one means the pid was recycled, or the
 * machine rebooted).
 */
export function isAlive(ref: { pid: number | null; start: string | null }): boolean {
  if (ref.pid === null || ref.pid <= 0) return false
  if (ref.start !== null && currentBootId() !== null) return processStart(ref.pid) === ref.start
  return pidExists(ref.pid)
}

/** What a runs row records of its processes (009_run_owner.sql). */
export interface RunProcesses {
  owner_pid: number | null
  owner_start: string | null
  worker_pid: number | null
  worker_start: string | null
}

/**
 * A 'running' row is live while the process that owns it (the engine host), or its runner, is
 * alive: a runner whose owner died is still writing its last batch and exits on its own. Rows
 * from before owners were recorded have only the runner's pid (or none yet).
 */
export function runIsLive(run: RunProcesses): boolean {
  // Nothing recorded at all: unknown, so left alone.
  if (run.owner_pid === null && run.worker_pid === null) return true
  if (run.owner_pid === null) return isAlive({ pid: run.worker_pid, start: null })
  return (
    isAlive({ pid: run.owner_pid, start: run.owner_start }) ||
    isAlive({ pid: run.worker_pid, start: run.worker_start })
  )
}
