import { errorReporter, startLoop } from './loop.ts'
import type { Loop } from './loop.ts'
import { CLK_TCK, pidsListeningOn, processTree, readRssBytes, readStat } from './procfs.ts'
import { procLimits, type ProcLimits } from './proc-limits.ts'
import type { ProcessMonitorSpec } from '../config/schema-monitor.ts'
import { MonitorError, toMonitorError } from './types.ts'
import type { ErrorHandler, Monitor, ResourceSample, SampleHandler } from './types.ts'

/** One process of the tree at one instant. */
type Proc = { pid: number; ticks: number; rssBytes: number }
/** A process tree at one instant, by `pid:start time` (so a reused pid is not confused). */
type Snapshot = { at: number; procs: Map<string, Proc> }

/** While the target is gone, look for it again (by port) every this many ticks. */
const RESOLVE_EVERY_TICKS = 3

/**
 * CPU and memory of a local process and all its descendants (a node cluster's workers, a shell's
 * children), from /proc: CPU % = Δ(utime + stime) / CLK_TCK / Δt × 100, so 100 = one core;
 * memory = Σ VmRSS (shared pages count once per process, as in `top`). With `tree: true`, every
 * process of the tree is its own instance (its pid), as `top` shows a cluster's workers; a
 * process that exits gets one 'exited' sample. Its limits are its (first) root's: the CPUs it may
 * run on and its cgroup's CPU quota and memory limit (proc-limits.ts).
 */
export class ProcessMonitor implements Monitor {
  readonly #spec: ProcessMonitorSpec
  readonly #target: string
  readonly #intervalMs: number
  #loop: Loop | undefined
  #roots: number[] = []
  /** Root pid(s) joined by '+'; kept after they exit so the timeline stays one series. */
  #instance = ''
  #rootStart = new Map<number, number>()
  #last: Snapshot | undefined
  /** The roots' CPU and memory limits (proc-limits.ts), read again every RESOLVE_EVERY_TICKS ticks. */
  #limits: ProcLimits = { cpuLimit: null, memoryLimitBytes: null }
  #limitsAge = 0

  constructor(spec: ProcessMonitorSpec, target: string, intervalMs = 1000) {
    this.#spec = spec
    this.#target = target
    this.#intervalMs = intervalMs
  }

  async start(onSample: SampleHandler, onError: ErrorHandler): Promise<void> {
    if (process.platform !== 'linux') {
      throw new MonitorError(
        'unsupported',
        `process monitor reads /proc and works on Linux only (this is ${process.platform})`,
      )
    }
    if (this.#loop) throw new MonitorError('config', 'process monitor already started')
    this.#setRoots(await this.#resolve())
    const errors = errorReporter(onError)
    let ticksSinceResolve = 0
    this.#loop = startLoop(
      this.#intervalMs,
      async () => {
        if (this.#roots.length === 0 && this.#spec.port !== undefined) {
          if (++ticksSinceResolve >= RESOLVE_EVERY_TICKS) {
            ticksSinceResolve = 0
            const roots = await pidsListeningOn(this.#spec.port)
            if (roots.length > 0) this.#setRoots(roots) // restarted: new baseline, sample next tick
          }
        }
        this.#readLimits()
        for (const sample of this.#spec.tree ? this.#perProcess() : [this.#sample()]) onSample(sample)
        errors.ok()
      },
      (error) =>
        errors.report(toMonitorError(error, 'bad-response', `process monitor (${this.#describe()})`)),
    )
  }

  async stop(): Promise<void> {
    await this.#loop?.stop()
    this.#loop = undefined
  }

  #describe(): string {
    return this.#spec.pid !== undefined ? `pid ${this.#spec.pid}` : `port ${this.#spec.port}`
  }

  async #resolve(): Promise<number[]> {
    if (this.#spec.pid !== undefined) {
      if (readStat(this.#spec.pid) === null) {
        throw new MonitorError(
          'not-found',
          `no process with pid ${this.#spec.pid} (it has exited or belongs to another PID namespace)`,
        )
      }
      return [this.#spec.pid]
    }
    const port = this.#spec.port as number
    const roots = await pidsListeningOn(port)
    if (roots.length === 0) {
      const who = process.getuid?.() === 0 ? '' : ' (processes of other users are visible only to root)'
      throw new MonitorError('not-found', `no process is listening on TCP port ${port}${who}`)
    }
    return roots
  }

  #setRoots(roots: number[]): void {
    this.#roots = roots
    this.#instance = roots.join('+')
    this.#rootStart = new Map(roots.map((pid) => [pid, readStat(pid)?.startTime ?? -1]))
    this.#last = this.#roots.length > 0 ? this.#snapshot() : undefined
  }

  /** Roots still alive and not replaced by another process under the same pid. */
  #liveRoots(): number[] {
    return this.#roots.filter((pid) => {
      const stat = readStat(pid)
      return stat !== null && stat.state !== 'Z' && stat.startTime === this.#rootStart.get(pid)
    })
  }

  #snapshot(): Snapshot {
    const procs = new Map<string, Proc>()
    for (const pid of processTree(this.#liveRoots())) {
      const stat = readStat(pid)
      if (!stat || stat.state === 'Z') continue // exited between listing and reading
      procs.set(`${pid}:${stat.startTime}`, { pid, ticks: stat.ticks, rssBytes: readRssBytes(pid) ?? 0 })
    }
    return { at: performance.now(), procs }
  }

  #base(t: number, instance: string) {
    return {
      t,
      source: 'process' as const,
      target: this.#target,
      instance,
      memoryLimitBytes: this.#limits.memoryLimitBytes,
      cpuLimit: this.#limits.cpuLimit,
    }
  }

  /** The first root's limits, read once every few ticks (they seldom change). */
  #readLimits(): void {
    if (this.#limitsAge-- > 0) return
    this.#limitsAge = RESOLVE_EVERY_TICKS
    const root = this.#roots[0]
    this.#limits = root === undefined ? { cpuLimit: null, memoryLimitBytes: null } : procLimits(root)
  }

  /** The next snapshot and the one before it, or null when the tree is gone. */
  #advance(): { prev: Snapshot; cur: Snapshot; seconds: number } | null {
    const prev = this.#last
    if (!prev || this.#liveRoots().length === 0) {
      this.#roots = []
      this.#last = undefined
      return null
    }
    const cur = this.#snapshot()
    this.#last = cur
    return { prev, cur, seconds: (cur.at - prev.at) / 1000 }
  }

  /** CPU % of `ticks` over `seconds`, 100 = one core. */
  #percent(ticks: number, seconds: number): number | null {
    return seconds > 0 ? Math.max(0, (ticks / CLK_TCK / seconds) * 100) : null
  }

  #sample(): ResourceSample {
    const t = Date.now()
    const step = this.#advance()
    if (!step)
      return { ...this.#base(t, this.#instance), cpuPercent: null, memoryBytes: null, state: 'exited' }
    let delta = 0
    let rssBytes = 0
    for (const [key, p] of step.cur.procs) {
      // A process born since the last tick spent all its time inside this interval. One that
      // exited since loses its last partial interval: /proc no longer has it.
      delta += p.ticks - (step.prev.procs.get(key)?.ticks ?? 0)
      rssBytes += p.rssBytes
    }
    return {
      ...this.#base(t, this.#instance),
      cpuPercent: this.#percent(delta, step.seconds),
      memoryBytes: rssBytes,
      state: 'running',
    }
  }

  #perProcess(): ResourceSample[] {
    const t = Date.now()
    const before = this.#last
    const step = this.#advance()
    const out: ResourceSample[] = []
    for (const [key, p] of step?.cur.procs ?? []) {
      out.push({
        ...this.#base(t, String(p.pid)),
        cpuPercent: this.#percent(p.ticks - (step?.prev.procs.get(key)?.ticks ?? 0), step?.seconds ?? 0),
        memoryBytes: p.rssBytes,
        state: 'running',
      })
    }
    for (const [key, p] of before?.procs ?? []) {
      if (!step?.cur.procs.has(key)) {
        out.push({ ...this.#base(t, String(p.pid)), cpuPercent: null, memoryBytes: null, state: 'exited' })
      }
    }
    return out
  }
}
