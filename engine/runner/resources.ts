// Resource samples on the run's timeline: each target's monitor (docker, process, Cloud Foundry)
// and the load generator's own CPU and memory, stored in resource_samples with t = seconds since
// the run's start (negative before it: the idle baseline). Monitors run in the parent, not in the
// runner process, so sampling costs the load generator nothing.
import { monitorsOf, type RunConfig } from '../config/schema.ts'
import { createMonitor, type Monitor, type ResourceSample, type StackLocator } from '../monitor/index.ts'
import { readRssBytes } from '../monitor/procfs.ts'
import type { Db } from '../store/db.ts'
import { resourceWriter } from '../store/resources.ts'
import type { ResourcePoint } from '../api/types.ts'

export class ResourceRecorder {
  private readonly monitors: Monitor[] = []
  private readonly pending: ResourceSample[] = []
  private t0: number | null = null
  /** Samples since the last progress event, for the live view. */
  private recent: ResourcePoint[] = []
  private readonly insert: (s: ResourceSample) => void
  private readonly config: RunConfig
  private readonly opts: {
    secrets?: Record<string, string>
    /** The stacks of the run's data folder, for monitors that name a `stack`. */
    stacks?: StackLocator
    onLog?: (level: 'warn', message: string) => void
  }

  constructor(db: Db, runId: number, config: RunConfig, opts: ResourceRecorder['opts']) {
    this.config = config
    this.opts = opts
    const write = resourceWriter(db, runId)
    let failed = false
    this.insert = (s) => {
      const t = (s.t - (this.t0 ?? s.t)) / 1000
      try {
        write(t, s)
      } catch (err) {
        // A full or failing disk: the run itself ends on it (its writer reports it); the
        // samples of the monitors are dropped, once said, and never take the host down.
        if (!failed)
          this.opts.onLog?.(
            'warn',
            `resource samples of run ${runId} could not be stored: ${err instanceof Error ? err.message : String(err)}`,
          )
        failed = true
        return
      }
      if (this.recent.length < 1000)
        this.recent.push({
          t,
          target: s.target,
          source: s.source,
          instance: s.instance,
          cpuPercent: s.cpuPercent,
          memoryBytes: s.memoryBytes,
          connections: s.connections ?? null,
        })
    }
  }

  start(): void {
    this.config.targets.forEach((target, i) => {
      const specs = monitorsOf(target)
      specs.forEach((spec, j) => {
        const field = `targets.${i}.monitor${Array.isArray(target.monitor) ? `.${j}` : ''}`
        const warn = (e: unknown) =>
          this.opts.onLog?.(
            'warn',
            `${field} (${target.name}): ${e instanceof Error ? e.message : String(e)}; the run goes on without it`,
          )
        let monitor: Monitor
        try {
          monitor = createMonitor(spec, target.name, { secrets: this.opts.secrets, stacks: this.opts.stacks })
        } catch (e) {
          warn(e)
          return
        }
        this.monitors.push(monitor)
        monitor
          .start(
            (s) => this.record(s),
            (e) => this.opts.onLog?.('warn', `${field} (${target.name}): ${e.message}`),
          )
          .catch(warn)
      })
    })
  }

  setT0(t0Epoch: number): void {
    this.t0 = t0Epoch
    for (const s of this.pending.splice(0)) this.insert(s)
  }

  record(s: ResourceSample): void {
    if (this.t0 === null) this.pending.push(s)
    else this.insert(s)
  }

  /** One generator sample per second: the load thread's CPU from its tick, the runner's RSS. */
  generator(pid: number, cpuPercent: number | null): void {
    // null when not Linux or the process just ended; 0 (no VmRSS: a zombie) is no reading either.
    const memory = readRssBytes(pid) || null
    this.record({
      t: Date.now(),
      source: 'generator',
      target: 'generator',
      instance: String(pid),
      cpuPercent,
      memoryBytes: memory,
      memoryLimitBytes: null,
      cpuLimit: null,
      state: 'running',
      connections: null,
    })
  }

  drain(): ResourcePoint[] {
    const out = this.recent
    this.recent = []
    return out
  }

  async stop(): Promise<void> {
    await Promise.allSettled(this.monitors.map((m) => m.stop()))
    if (this.t0 === null) this.pending.length = 0
  }
}
