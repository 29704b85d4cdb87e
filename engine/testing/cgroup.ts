// A Linux cgroup a test makes for a process whose CPU quota or memory limit it sets: the known
// truth behind "its CPU at its limit" (what `docker --cpus`, systemd's CPUQuota= and Kubernetes
// limits do, without Docker). cgroup v2 (one tree) or v1 (a tree per controller). Making one
// needs root and a writable /sys/fs/cgroup: where either is missing `makeCgroup` says why, and
// the test that asked prints it and skips. The group also gets a large CPU weight, so that on a
// machine busy with other work the process still gets the CPU its quota allows: the quota is the
// limit the test means, not the machine's load.
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface Cgroup {
  /** Move a process into it. */
  add(pid: number): void
  /** Remove it (its processes must have exited). */
  remove(): void
}

const FS = '/sys/fs/cgroup'

function write(path: string, text: string): void {
  writeFileSync(path, text)
}

/** A cgroup limiting its processes to `cpus` cores and/or `memoryBytes`, or why there is none. */
export function makeCgroup(name: string, o: { cpus?: number; memoryBytes?: number }): Cgroup | string {
  if (process.platform !== 'linux') return `cgroups are Linux's (this is ${process.platform})`
  if (process.getuid?.() !== 0) return 'making a cgroup needs root'
  const unique = `cannonade-${name}-${process.pid}`
  const period = 100_000
  try {
    if (existsSync(join(FS, 'cgroup.controllers'))) {
      const dir = join(FS, unique)
      mkdirSync(dir)
      if (o.cpus !== undefined) {
        write(join(dir, 'cpu.max'), `${Math.round(o.cpus * period)} ${period}`)
        write(join(dir, 'cpu.weight'), '10000')
      }
      if (o.memoryBytes !== undefined) write(join(dir, 'memory.max'), String(o.memoryBytes))
      return {
        add: (pid) => write(join(dir, 'cgroup.procs'), String(pid)),
        remove: () => rmdirSync(dir),
      }
    }
    const dirs: string[] = []
    if (o.cpus !== undefined) {
      const dir = join(FS, 'cpu', unique)
      mkdirSync(dir)
      dirs.push(dir)
      write(join(dir, 'cpu.cfs_period_us'), String(period))
      write(join(dir, 'cpu.cfs_quota_us'), String(Math.round(o.cpus * period)))
      write(join(dir, 'cpu.shares'), '262144')
    }
    if (o.memoryBytes !== undefined) {
      const dir = join(FS, 'memory', unique)
      mkdirSync(dir)
      dirs.push(dir)
      write(join(dir, 'memory.limit_in_bytes'), String(o.memoryBytes))
    }
    return {
      add: (pid) => dirs.forEach((d) => write(join(d, 'cgroup.procs'), String(pid))),
      remove: () => dirs.forEach((d) => rmdirSync(d)),
    }
  } catch (err) {
    return `cannot make a cgroup under ${FS}: ${(err as Error).message}`
  }
}
