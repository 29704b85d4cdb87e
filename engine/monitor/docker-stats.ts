/*
 * The arithmetic of Docker's stats frames, kept apart from the engine plumbing so that it can be
 * checked against recorded frames without a Docker engine.
 */

/** The part of a /containers/{id}/stats frame the monitor uses. */
export type StatsFrame = {
  /** Cumulative CPU time of the container, ns. */
  cpuTotal: number
  /** Cumulative CPU time of the host, all cores, ns (Linux only). */
  systemCpu: number
  onlineCpus: number
  /** The frame's own previous reading (the first frame of a stream has none: 0). */
  preCpuTotal: number
  preSystemCpu: number
  /** usage − inactive file cache, bytes: what `docker stats` shows. */
  memoryBytes: number | null
}

type Json = Record<string, unknown>
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' ? (v as Json) : {})
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/**
 * A frame of a running container, or null for the empty frames the engine publishes while a
 * container is stopped (or for anything unreadable, e.g. a Windows engine without system CPU).
 */
export function parseStatsFrame(raw: unknown): StatsFrame | null {
  const frame = obj(raw)
  const cpu = obj(frame.cpu_stats)
  const pre = obj(frame.precpu_stats)
  const cpuTotal = num(obj(cpu.cpu_usage).total_usage)
  const systemCpu = num(cpu.system_cpu_usage)
  if (cpuTotal === undefined || systemCpu === undefined || systemCpu === 0) return null
  // online_cpus is absent on old engines: fall back to the per-CPU array (cgroup v1 only).
  const percpu = obj(cpu.cpu_usage).percpu_usage
  const onlineCpus = num(cpu.online_cpus) ?? (Array.isArray(percpu) ? percpu.length : 1)
  return {
    cpuTotal,
    systemCpu,
    onlineCpus: onlineCpus > 0 ? onlineCpus : 1,
    preCpuTotal: num(obj(pre.cpu_usage).total_usage) ?? 0,
    preSystemCpu: num(pre.system_cpu_usage) ?? 0,
    memoryBytes: memoryOf(obj(frame.memory_stats)),
  }
}

/**
 * usage − inactive_file, as the Docker CLI computes it: the page cache the kernel can drop at
 * once is not the application's memory. cgroup v2 names it `inactive_file`, cgroup v1
 * `total_inactive_file` (v1 also has a per-cgroup `inactive_file`; the total is the right one).
 */
function memoryOf(memory: Json): number | null {
  const usage = num(memory.usage)
  if (usage === undefined) return null
  const stats = obj(memory.stats)
  const inactive = num(stats.total_inactive_file) ?? num(stats.inactive_file) ?? 0
  return inactive < usage ? usage - inactive : usage
}

/**
 * CPU % between two frames of one container: Δcontainer / Δhost × online CPUs × 100, so 100 =
 * one core. With no `prev`, the frame's own precpu reading is the baseline (absent in the first
 * frame of a stream, which then yields null).
 */
export function cpuPercent(cur: StatsFrame, prev?: StatsFrame): number | null {
  const prevCpu = prev ? prev.cpuTotal : cur.preCpuTotal
  const prevSystem = prev ? prev.systemCpu : cur.preSystemCpu
  if (prevSystem === 0) return null
  const cpuDelta = cur.cpuTotal - prevCpu
  const systemDelta = cur.systemCpu - prevSystem
  if (systemDelta <= 0 || cpuDelta < 0) return null
  return (cpuDelta / systemDelta) * cur.onlineCpus * 100
}

/** Cores a container may use: NanoCpus (`--cpus`), else CFS quota / period, else no limit. */
export function cpuLimitOf(hostConfig: {
  NanoCpus?: number
  CpuQuota?: number
  CpuPeriod?: number
}): number | null {
  if (hostConfig.NanoCpus) return hostConfig.NanoCpus / 1e9
  const { CpuQuota: quota, CpuPeriod: period } = hostConfig
  if (quota && quota > 0) return quota / (period && period > 0 ? period : 100_000)
  return null
}

/** The longest stats frame kept (one is ~2-5 KB): an engine that never ends a line is not held. */
export const MAX_FRAME_CHARS = 1024 * 1024

/** Splits a newline-delimited JSON byte stream into parsed values, whatever the chunking. */
export function ndjsonSplitter(onValue: (value: unknown) => void): (chunk: Buffer | string) => void {
  let rest = ''
  return (chunk) => {
    rest += chunk.toString()
    // A frame past the bound is dropped up to its line's end (the next frame comes within a second).
    if (rest.length > MAX_FRAME_CHARS && !rest.includes('\n')) return void (rest = '')
    let nl: number
    while ((nl = rest.indexOf('\n')) >= 0) {
      const line = rest.slice(0, nl).trim()
      rest = rest.slice(nl + 1)
      if (!line) continue
      let value: unknown
      try {
        value = JSON.parse(line)
      } catch {
        continue // a torn frame is skipped; the next one arrives within a second
      }
      onValue(value)
    }
  }
}
