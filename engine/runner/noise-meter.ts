// What else ran on the machine while a segment ran, measured by the runner's parent from the
// segment's start ('segment-started') to its summary: the host's load average (each second) and
// CPU steal, the runner's own CPU (all its threads), and the CPU of everything outside the run (the
// host's busy time less the runner, this engine process (monitors, an embedded target) and the
// monitored targets on this host). engine/metrics/noise.ts judges the figures. Linux /proc only:
// elsewhere every figure is null and no round is called disturbed by the host rule.
import { availableParallelism } from 'node:os'
import type { TargetRoundSummary } from '../api/types.ts'
import type { MeasuredNoise } from '../metrics/noise.ts'
import { readHostCpu, readLoadAverage, readStat, type HostCpu } from '../monitor/procfs.ts'
import type { ResourceSample } from '../monitor/types.ts'

interface Window {
  targetIndex: number
  target: string
  round: number
  atMs: number
  host: HostCpu | null
  runner: number | null
  self: number | null
  loads: number[]
  /** Per monitored instance on this host: CPU % readings in the window, and its limit (cores). */
  instances: Map<string, { target: string; host: string; sum: number; n: number; limit: number | null }>
}

/** Where the meter reads the machine: /proc, unless a test gives its own. */
export interface ProcReader {
  hostCpu(): HostCpu | null
  loadAverage(): number | null
  /** A process's CPU time (CLK_TCK units), all its threads; 'self' is this process. */
  ticks(pid: number | 'self'): number | null
  cores: number
}

const PROC: ProcReader = {
  hostCpu: readHostCpu,
  loadAverage: readLoadAverage,
  ticks: (pid) => readStat(pid === 'self' ? process.pid : pid)?.ticks ?? null,
  cores: availableParallelism(),
}

export interface NoiseMeterOptions {
  runnerPid: number
  proc?: ProcReader
  /** Target names by index, to name a window. */
  targets: readonly string[]
  /** Whether a monitor's samples are of a process on this host (docker on a remote host is not). */
  local: (s: ResourceSample) => boolean
}

const mean = (xs: readonly number[]): number | null =>
  xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null

export class NoiseMeter {
  readonly cores: number
  private readonly o: NoiseMeterOptions
  private readonly proc: ProcReader
  private window: Window | null = null

  constructor(o: NoiseMeterOptions) {
    this.o = o
    this.proc = o.proc ?? PROC
    this.cores = this.proc.cores
  }

  start(targetIndex: number, round: number, atMs = Date.now()): void {
    this.window = {
      targetIndex,
      target: this.o.targets[targetIndex] ?? String(targetIndex),
      round,
      atMs,
      host: this.proc.hostCpu(),
      runner: this.proc.ticks(this.o.runnerPid),
      self: this.proc.ticks('self'),
      loads: [],
      instances: new Map(),
    }
  }

  /** Once a second while a segment runs. */
  tick(): void {
    const load = this.window ? this.proc.loadAverage() : null
    if (load !== null) this.window?.loads.push(load)
  }

  resource(s: ResourceSample): void {
    const w = this.window
    if (!w || s.t < w.atMs || s.cpuPercent === null || s.source === 'generator' || !this.o.local(s)) return
    const key = `${s.source}:${s.target}:${s.instance}`
    const i = w.instances.get(key) ?? {
      target: s.target,
      host: `${s.source}:${s.instance}`,
      sum: 0,
      n: 0,
      limit: null,
    }
    i.sum += s.cpuPercent
    i.n++
    i.limit = s.cpuLimit ?? i.limit
    w.instances.set(key, i)
  }

  /** The segment's noise, once its summary came; null when no window matches it. */
  end(summary: TargetRoundSummary): (MeasuredNoise & { targetIndex: number }) | null {
    const w = this.window
    if (!w || w.target !== summary.target || w.round !== summary.round) return null
    this.window = null
    const host = this.proc.hostCpu()
    // Jiffies of one core over the window, from the host's own total (all CPUs summed).
    const perCore = host && w.host ? (host.total - w.host.total) / this.cores : null
    const share = (ticks: number | null): number | null =>
      ticks === null || !perCore ? null : (ticks / perCore) * 100
    const delta = (now: number | null, then: number | null) =>
      now === null || then === null ? null : Math.max(0, now - then)
    const busy = host && w.host ? share(host.busy - w.host.busy) : null
    const generator = share(delta(this.proc.ticks(this.o.runnerPid), w.runner))
    const self = share(delta(this.proc.ticks('self'), w.self))
    let own = 0
    let ownLimit: number | null = 0
    let monitored = false
    // An instance two targets monitor (one server under two names) is the host's CPU once.
    const byInstance = new Map<string, number>()
    for (const i of w.instances.values()) {
      const cpu = i.sum / Math.max(1, i.n)
      byInstance.set(i.host, cpu)
      if (i.target === w.target) {
        monitored = true
        own += cpu
        ownLimit = ownLimit === null || i.limit === null ? null : ownLimit + i.limit * 100
      }
    }
    const targets = [...byInstance.values()].reduce((a, b) => a + b, 0)
    const other = busy === null ? null : Math.max(0, busy - (generator ?? 0) - (self ?? 0) - targets)
    const steal =
      host && w.host && host.total > w.host.total
        ? ((host.steal - w.host.steal) / (host.total - w.host.total)) * 100
        : null
    const lag = summary.schedule ? summary.schedule.lateness.p99 / 1000 : null
    return {
      targetIndex: w.targetIndex,
      loadAverage: mean(w.loads) ?? this.proc.loadAverage(),
      cores: this.cores,
      stealPercent: steal,
      otherCpuPercent: other,
      generatorCpuPercent: generator,
      sendLagMs: lag,
      targetCpuPercent: monitored ? own : null,
      targetCpuLimitPercent: monitored ? ownLimit : null,
    }
  }
}
