// A process's limits from /proc and its cgroup files: a tree the test writes (cgroup v2 and v1,
// a CPU list, no limit at all), and this process as Linux reports it.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cgroupPaths, cpuCount, procLimits } from './proc-limits.ts'

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cannonade-proc-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

describe('process limits', () => {
  it('reads CPU lists and cgroup lines', () => {
    expect(cpuCount('0-3,6')).toBe(5)
    expect(cpuCount('1')).toBe(1)
    expect(cgroupPaths('4:memory:/a\n1:cpu,cpuacct:/b\n0::/c\n')).toEqual(
      new Map([
        ['memory', '/a'],
        ['cpu', '/b'],
        ['cpuacct', '/b'],
        ['', '/c'],
      ]),
    )
  })

  it('cgroup v2: the fewer of its CPUs and cpu.max, and memory.max', () => {
    const root = tree({
      'proc/7/status': 'Name:\tnode\nCpus_allowed_list:\t0-3\n',
      'proc/7/cgroup': '0::/app.slice/web\n',
      'sys/fs/cgroup/app.slice/web/cpu.max': '150000 100000\n',
      'sys/fs/cgroup/app.slice/web/memory.max': '536870912\n',
    })
    expect(procLimits(7, root)).toEqual({ cpuLimit: 1.5, memoryLimitBytes: 536870912 })
  })

  it('cgroup v1: cfs quota over period, limit_in_bytes; pinned to one CPU, that is its limit', () => {
    const root = tree({
      'proc/9/status': 'Cpus_allowed_list:\t1\n',
      'proc/9/cgroup': '4:memory:/t\n1:cpu:/t\n',
      'sys/fs/cgroup/cpu/t/cpu.cfs_quota_us': '250000\n',
      'sys/fs/cgroup/cpu/t/cpu.cfs_period_us': '100000\n',
      'sys/fs/cgroup/memory/t/memory.limit_in_bytes': '268435456\n',
    })
    expect(procLimits(9, root)).toEqual({ cpuLimit: 1, memoryLimitBytes: 268435456 })
  })

  it('no quota and no memory limit: its CPUs, and no memory limit', () => {
    const root = tree({
      'proc/5/status': 'Cpus_allowed_list:\t0-1\n',
      'proc/5/cgroup': '4:memory:/\n1:cpu:/\n0::/\n',
      'sys/fs/cgroup/cpu.max': 'max 100000\n',
      'sys/fs/cgroup/memory.max': 'max\n',
      'sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1\n',
      'sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n',
      'sys/fs/cgroup/memory/memory.limit_in_bytes': '9223372036854771712\n',
    })
    expect(procLimits(5, root)).toEqual({ cpuLimit: 2, memoryLimitBytes: null })
    // A process that is gone has no limits to read.
    expect(procLimits(6, root)).toEqual({ cpuLimit: null, memoryLimitBytes: null })
  })

  it.skipIf(process.platform !== 'linux')(
    'this process (Linux only: /proc): at most the CPUs Node sees',
    () => {
      const own = procLimits(process.pid)
      expect(own.cpuLimit).not.toBeNull()
      expect(own.cpuLimit!).toBeLessThanOrEqual(availableParallelism())
    },
  )
})
