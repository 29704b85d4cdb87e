import { describe, expect, it } from 'vitest'
import { cpuLimitOf, cpuPercent, ndjsonSplitter, parseStatsFrame } from './docker-stats.ts'

// Trimmed frames as the engine sends them (cgroup v2, then v1), and the empty frame it publishes
// for a stopped container.
const v2 = {
  read: '2026-01-01T00:00:02Z',
  cpu_stats: { cpu_usage: { total_usage: 3_500_000_000 }, system_cpu_usage: 20_000_000_000, online_cpus: 2 },
  precpu_stats: {
    cpu_usage: { total_usage: 3_000_000_000 },
    system_cpu_usage: 18_000_000_000,
    online_cpus: 2,
  },
  memory_stats: {
    usage: 50_000_000,
    limit: 67_108_864,
    stats: { inactive_file: 10_000_000, file: 12_000_000 },
  },
}
const v1 = {
  cpu_stats: {
    cpu_usage: { total_usage: 2_000, percpu_usage: [1_000, 1_000, 0, 0] },
    system_cpu_usage: 8_000,
  },
  precpu_stats: { cpu_usage: { total_usage: 1_000 }, system_cpu_usage: 4_000 },
  memory_stats: { usage: 30_000_000, stats: { inactive_file: 1, total_inactive_file: 5_000_000 } },
}
const stopped = {
  read: '0001-01-01T00:00:00Z',
  cpu_stats: { cpu_usage: { total_usage: 0 }, throttling_data: {} },
  precpu_stats: { cpu_usage: { total_usage: 0 } },
  memory_stats: {},
}

describe('docker stats arithmetic', () => {
  it('computes CPU from the precpu baseline and memory without inactive file cache (cgroup v2)', () => {
    const frame = parseStatsFrame(v2)
    expect(frame).not.toBeNull()
    // 0.5 s of container CPU in 2 s of host CPU over 2 cores = one core busy half the time.
    expect(cpuPercent(frame!)).toBeCloseTo(50)
    expect(frame!.memoryBytes).toBe(40_000_000)
  })

  it('uses total_inactive_file and percpu length on cgroup v1 engines', () => {
    const frame = parseStatsFrame(v1)
    expect(frame!.onlineCpus).toBe(4)
    expect(cpuPercent(frame!)).toBeCloseTo(100)
    expect(frame!.memoryBytes).toBe(25_000_000)
  })

  it('measures between two chosen frames, so a skipped frame loses no CPU time', () => {
    const a = parseStatsFrame(v2)!
    const b = { ...a, cpuTotal: a.cpuTotal + 4e9, systemCpu: a.systemCpu + 4e9 }
    expect(cpuPercent(b, a)).toBeCloseTo(200)
  })

  it('treats the empty frames of a stopped container as no reading', () => {
    expect(parseStatsFrame(stopped)).toBeNull()
    expect(parseStatsFrame('garbage')).toBeNull()
    const first = parseStatsFrame({ ...v2, precpu_stats: {} })!
    expect(cpuPercent(first)).toBeNull()
  })

  it('reads the CPU limit from NanoCpus or the CFS quota', () => {
    expect(cpuLimitOf({ NanoCpus: 1_500_000_000 })).toBe(1.5)
    expect(cpuLimitOf({ CpuQuota: 50_000, CpuPeriod: 100_000 })).toBe(0.5)
    expect(cpuLimitOf({ NanoCpus: 0, CpuQuota: 0 })).toBeNull()
  })

  it('splits newline-delimited JSON across arbitrary chunk boundaries', () => {
    const out: unknown[] = []
    const push = ndjsonSplitter((v) => out.push(v))
    const text = '{"a":1}\n{"b":2}\n\nnot json\n{"c":3}\n'
    const cuts = [0, 3, 9, 11, 20, text.length]
    for (let i = 1; i < cuts.length; i++) push(text.slice(cuts[i - 1], cuts[i]))
    expect(out).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }])
  })

  it('drops a frame that never ends past 1 MB, and reads the frames after it (issue 29, item 8)', () => {
    const out: unknown[] = []
    const push = ndjsonSplitter((v) => out.push(v))
    push('{"a":1}\n{"x":"')
    for (let i = 0; i < 50; i++) push('y'.repeat(64 * 1024))
    push('"}\n{"b":2}\n')
    expect(out).toEqual([{ a: 1 }, { b: 2 }])
  })
})
