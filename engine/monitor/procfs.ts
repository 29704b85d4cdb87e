import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { readdir, readFile, readlink } from 'node:fs/promises'

/*
 * Linux /proc readers for the process monitor. Reads here are synchronous on purpose: each is a
 * few microseconds against a kernel pseudo-file, and a few dozen per second cost less than the
 * thread-pool round trips of their async twins. The port lookup, which may readlink thousands of
 * file descriptors, is async and runs only when a target is (re)resolved.
 */

/** USER_HZ: /proc times are in these units. 100 on every mainstream Linux ABI. */
export const CLK_TCK = 100

export type ProcStat = {
  pid: number
  ppid: number
  /** R, S, D, Z, T, … */
  state: string
  /** utime + stime, in CLK_TCK units. Children's time is counted per child, not via cutime. */
  ticks: number
  /** Since boot, in CLK_TCK units: with pid, identifies a process across pid reuse. */
  startTime: number
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null // gone (exited) or not ours to read
  }
}

export function readStat(pid: number): ProcStat | null {
  const text = readText(`/proc/${pid}/stat`)
  if (text === null) return null
  // comm (field 2) may contain spaces and parentheses: split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  // fields[0] is field 3 (state) of proc(5).
  const utime = Number(fields[11])
  const stime = Number(fields[12])
  return {
    pid,
    ppid: Number(fields[1]),
    state: fields[0] ?? '?',
    ticks: utime + stime,
    startTime: Number(fields[19]),
  }
}

/** Resident set size in bytes (VmRSS); 0 for a zombie, null when the process is gone. */
export function readRssBytes(pid: number): number | null {
  const text = readText(`/proc/${pid}/status`)
  if (text === null) return null
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(text)
  return match ? Number(match[1]) * 1024 : 0
}

let childrenFile: boolean | undefined

/** Direct children of `pid`, from /proc/PID/task/TID/children, or a scan of /proc without it. */
export function childrenOf(pid: number): number[] {
  // The children file needs CONFIG_PROC_CHILDREN; every mainstream distribution kernel has it.
  childrenFile ??= existsSync(`/proc/self/task/${process.pid}/children`)
  const out: number[] = []
  if (childrenFile) {
    let tids: string[]
    try {
      tids = readdirSync(`/proc/${pid}/task`)
    } catch {
      return out
    }
    // A child belongs to the thread that forked it, so every thread is read.
    for (const tid of tids) {
      const text = readText(`/proc/${pid}/task/${tid}/children`)
      for (const part of text?.split(' ') ?? []) if (part.trim()) out.push(Number(part))
    }
    return out
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = readStat(Number(entry))
    if (stat?.ppid === pid) out.push(stat.pid)
  }
  return out
}

/** The roots and all their descendants, roots first, each pid once. */
export function processTree(roots: readonly number[]): number[] {
  const seen = new Set<number>()
  const queue = [...roots]
  while (queue.length > 0) {
    const pid = queue.shift() as number
    if (seen.has(pid)) continue
    seen.add(pid)
    queue.push(...childrenOf(pid))
  }
  return [...seen]
}

/** Socket inodes listening on TCP `port` (IPv4 and IPv6) in this network namespace. */
export async function listeningInodes(port: number): Promise<Set<string>> {
  const inodes = new Set<string>()
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch {
      continue // no IPv6 in this kernel
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/)
      // sl local_address rem_address st … inode (column 10); 0A = TCP_LISTEN.
      if (cols.length < 10 || cols[3] !== '0A') continue
      const local = cols[1] ?? ''
      if (parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port && cols[9] !== '0') {
        inodes.add(cols[9] as string)
      }
    }
  }
  return inodes
}

/**
 * The processes that hold a socket listening on `port`, reduced to the topmost ones: a node
 * cluster's primary, not each worker that shares its handle. Processes of other users are only
 * visible to root.
 */
export async function pidsListeningOn(port: number): Promise<number[]> {
  const inodes = await listeningInodes(port)
  if (inodes.size === 0) return []
  const targets = new Set([...inodes].map((i) => `socket:[${i}]`))
  const holders: number[] = []
  const pids = (await readdir('/proc')).filter((e) => /^\d+$/.test(e))
  await Promise.all(
    pids.map(async (pid) => {
      let fds: string[]
      try {
        fds = await readdir(`/proc/${pid}/fd`)
      } catch {
        return
      }
      for (const fd of fds) {
        const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')
        if (targets.has(link)) {
          holders.push(Number(pid))
          return
        }
      }
    }),
  )
  const holderSet = new Set(holders)
  const hasHolderAncestor = (pid: number): boolean => {
    for (let p = readStat(pid)?.ppid ?? 0, hops = 0; p > 1 && hops < 64; hops++) {
      if (holderSet.has(p)) return true
      p = readStat(p)?.ppid ?? 0
    }
    return false
  }
  return holders.filter((pid) => !hasHolderAncestor(pid)).sort((a, b) => a - b)
}

/** The host's CPU time since boot from /proc/stat's `cpu` line, in CLK_TCK units (all CPUs summed). */
export type HostCpu = { busy: number; steal: number; total: number }

export function readHostCpu(): HostCpu | null {
  const text = readText('/proc/stat')
  const line = text?.split('\n').find((l) => l.startsWith('cpu '))
  if (!line) return null
  // user nice system idle iowait irq softirq steal guest guest_nice; guest time is in user already.
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number)
  return {
    busy: user + nice + system + irq + softirq,
    steal,
    total: user + nice + system + idle + iowait + irq + softirq + steal,
  }
}

/** The 1-minute load average from /proc/loadavg, or null where there is none. */
export function readLoadAverage(): number | null {
  const text = readText('/proc/loadavg')
  const v = text ? Number(text.split(' ')[0]) : Number.NaN
  return Number.isFinite(v) ? v : null
}

/** Every process's pid and short name (comm), for naming what else uses the CPU. */
export function listProcesses(): { pid: number; name: string }[] {
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return []
  }
  const out: { pid: number; name: string }[] = []
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue
    const comm = readText(`/proc/${e}/comm`)
    if (comm !== null) out.push({ pid: Number(e), name: comm.trim() })
  }
  return out
}
