// The CPU and memory a local process may use, as Linux enforces them: the CPUs it may run on
// (sched affinity, `taskset`), its cgroup's CPU quota (cgroup v2 cpu.max, v1 cpu.cfs_quota_us /
// cpu.cfs_period_us: what `docker --cpus`, systemd's CPUQuota= and Kubernetes limits set) and its
// cgroup's memory limit (v2 memory.max, v1 memory.limit_in_bytes). A process monitor reports them
// with each sample, so a target's CPU is read against its limit (metrics/limiting.ts) and not only
// against the host's cores. Every file is read as it is; whatever cannot be read is no limit.
import { readFileSync } from 'node:fs'

export interface ProcLimits {
  /** Cores: the fewer of its CPUs and its cgroup's quota. */
  cpuLimit: number | null
  memoryLimitBytes: number | null
}

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8').trim()
  } catch {
    return null
  }
}

/** How many CPUs a list such as "0-3,6" names. */
export function cpuCount(list: string): number {
  let n = 0
  for (const part of list.split(',')) {
    const [a, b] = part.trim().split('-').map(Number)
    if (a === undefined || !Number.isInteger(a)) continue
    n += b !== undefined && Number.isInteger(b) ? b - a + 1 : 1
  }
  return n
}

/** The CPUs the process may run on (`Cpus_allowed_list` of /proc/PID/status). */
function affinity(root: string, pid: number): number | null {
  const status = read(`${root}/proc/${pid}/status`)
  const line = status?.split('\n').find((l) => l.startsWith('Cpus_allowed_list:'))
  const n = line ? cpuCount(line.slice(line.indexOf(':') + 1)) : 0
  return n > 0 ? n : null
}

/** The process's cgroups: per v1 controller its path, and the v2 path (key ''). */
export function cgroupPaths(text: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const line of text.split('\n')) {
    const [, controllers, path] = line.split(':')
    if (controllers === undefined || path === undefined) continue
    if (controllers === '') out.set('', path)
    for (const c of controllers.split(',')) if (c) out.set(c, path)
  }
  return out
}

/** The first of `files` (relative to a cgroup directory) found under one of `dirs`. */
function firstFile(dirs: readonly string[], file: string): string | null {
  for (const d of dirs) {
    const text = read(`${d}/${file}`)
    if (text !== null) return text
  }
  return null
}

/** The cgroup directories that may hold `controller`'s files for the process, v2 then v1. */
function dirsFor(
  root: string,
  paths: Map<string, string>,
  controller: string,
): { v2: string[]; v1: string[] } {
  const v2 = paths.get('')
  const v1 = paths.get(controller)
  const fs = `${root}/sys/fs/cgroup`
  const strip = (p: string) => (p === '/' ? '' : p)
  return {
    v2: v2 === undefined ? [] : [`${fs}${strip(v2)}`, `${fs}/unified${strip(v2)}`],
    v1: v1 === undefined ? [] : [`${fs}/${controller}${strip(v1)}`, `${fs}/cpu,cpuacct${strip(v1)}`],
  }
}

/** The cgroup's CPU quota in cores, or null when it has none. */
function cpuQuota(root: string, paths: Map<string, string>): number | null {
  const dirs = dirsFor(root, paths, 'cpu')
  const max = firstFile(dirs.v2, 'cpu.max')
  if (max !== null) {
    const [quota, period] = max.split(/\s+/)
    if (quota !== 'max' && Number(quota) > 0 && Number(period) > 0) return Number(quota) / Number(period)
  }
  const quota = Number(firstFile(dirs.v1, 'cpu.cfs_quota_us'))
  const period = Number(firstFile(dirs.v1, 'cpu.cfs_period_us'))
  return quota > 0 && period > 0 ? quota / period : null
}

/** Above this a memory limit is "none" (v1 writes a page-rounded 2^63 for unlimited). */
const NO_MEMORY_LIMIT = 2 ** 60

function memoryLimit(root: string, paths: Map<string, string>): number | null {
  const dirs = dirsFor(root, paths, 'memory')
  const v2 = firstFile(dirs.v2, 'memory.max')
  if (v2 !== null && v2 !== 'max' && Number(v2) > 0) return Number(v2)
  const v1 = Number(firstFile(dirs.v1, 'memory.limit_in_bytes'))
  return v1 > 0 && v1 < NO_MEMORY_LIMIT ? v1 : null
}

/** A process's limits now (`root`: where /proc and /sys are, for tests). */
export function procLimits(pid: number, root = ''): ProcLimits {
  const paths = cgroupPaths(read(`${root}/proc/${pid}/cgroup`) ?? '')
  const cpus = affinity(root, pid)
  const quota = cpuQuota(root, paths)
  const cpuLimit = cpus === null ? quota : quota === null ? cpus : Math.min(cpus, quota)
  return { cpuLimit, memoryLimitBytes: memoryLimit(root, paths) }
}
