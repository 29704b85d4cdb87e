// Resource samples on the run's timeline: each target's monitor (docker, process, Cloud Foundry)
// and the load generator's own CPU and memory, stored in resource_samples with t = seconds since
// the run's start (negative before it: the idle baseline). Monitors run in the parent, not in the
// runner process, so sampling costs the load generator nothing. A monitor that cannot read its
// source never fails silently: it becomes one of the run's warnings (run_warnings), stored at
// once and told to the live view (onWarning) once its place on the timeline is known.
import { redactText } from '../config/redact.ts'
import { monitorsOf, type RunConfig } from '../config/schema.ts'
import { createMonitor, type Monitor, type ResourceSample, type StackLocator } from '../monitor/index.ts'
import { readRssBytes } from '../monitor/procfs.ts'
import { isBusy, withLockWait, type Db } from '../store/db.ts'
import { resourceWriter } from '../store/resources.ts'
import { warningWriter, type WarningWriter } from '../store/warnings.ts'
import type { ResourcePoint, RunWarning } from '../api/types.ts'

export class ResourceRecorder {
  private readonly monitors: Monitor[] = []
  private readonly pending: ResourceSample[] = []
  private t0: number | null = null
  /** Samples since the last progress event, for the live view. */
  private recent: ResourcePoint[] = []
  private readonly insert: (s: ResourceSample) => void
  /** Stored samples not yet written: the database was locked by another connection. */
  private unwritten: { t: number; s: ResourceSample }[]
  private readonly flushUnwritten: () => void
  private readonly warnings: WarningWriter
  /** Warnings stored before t = 0 was known: told once it is (or at the end, if it never is). */
  private untold: RunWarning[] = []
  private readonly config: RunConfig
  private readonly opts: {
    secrets?: Record<string, string>
    /** The stacks of the run's data folder, for monitors that name a `stack`. */
    stacks?: StackLocator
    /** The Docker host setting, for docker monitors. */
    dockerHost?: string
    onLog?: (level: 'warn', message: string) => void
    onWarning?: (warning: RunWarning) => void
    /** Every sample as it is taken (the noise meter reads the targets' CPU). */
    onSample?: (sample: ResourceSample) => void
  }

  constructor(db: Db, runId: number, config: RunConfig, opts: ResourceRecorder['opts']) {
    this.config = config
    this.opts = opts
    this.warnings = warningWriter(db, runId)
    const write = resourceWriter(db, runId)
    let failed = false
    let waiting = false
    // Samples wait here while another connection holds the database's write lock (the rows
    // thread starved on the generator's CPU, a user's own sqlite3): tried again with the next
    // sample after a brief wait, so the host's event loop never stalls seconds on the lock, and
    // written with the usual wait at the end of the run. A disk that fails drops them, once said.
    this.unwritten = []
    const flush = (wait: boolean) => {
      try {
        withLockWait(db, wait, () => {
          while (this.unwritten.length > 0) {
            const { t, s } = this.unwritten[0]!
            write(t, s)
            this.unwritten.shift()
            this.remember(t, s)
          }
        })
        waiting = false
      } catch (err) {
        if (isBusy(err) && !wait) {
          // Said once the wait is long: a lock held for a block's write is no news.
          const oldest = this.unwritten[0]?.s.t ?? Date.now()
          if (!waiting && Date.now() - oldest > 5000)
            this.opts.onLog?.(
              'warn',
              `resource samples of run ${runId} wait for the database, which another connection is writing; they are kept and stored when it is free`,
            )
          if (Date.now() - oldest > 5000) waiting = true
          return
        }
        // A full or failing disk: the run itself ends on it (its writer reports it); the
        // samples of the monitors are dropped, once said, and never take the host down.
        if (!failed)
          this.opts.onLog?.(
            'warn',
            `resource samples of run ${runId} could not be stored: ${err instanceof Error ? err.message : String(err)}`,
          )
        failed = true
        this.unwritten.length = 0
      }
    }
    this.flushUnwritten = () => flush(true)
    this.insert = (s) => {
      if (failed) return
      const t = (s.t - (this.t0 ?? s.t)) / 1000
      // Bounded: an hour of one sample a second for 16 instances.
      if (this.unwritten.length >= 57_600) this.unwritten.shift()
      this.unwritten.push({ t, s })
      flush(false)
    }
  }

  /** A stored sample, for the live view's next progress event. */
  private remember(t: number, s: ResourceSample): void {
    if (this.recent.length < 1000)
      this.recent.push({
        t,
        target: s.target,
        source: s.source,
        instance: s.instance,
        cpuPercent: s.cpuPercent,
        memoryBytes: s.memoryBytes,
        connections: s.connections ?? null,
        ...(s.metric ? { metric: s.metric, value: s.value ?? null } : {}),
      })
  }

  start(): void {
    this.config.targets.forEach((target, i) => {
      const specs = monitorsOf(target)
      specs.forEach((spec, j) => {
        const field = `targets.${i}.monitor${Array.isArray(target.monitor) ? `.${j}` : ''}`
        // stopped: the monitor could not start, so nothing comes from it for the rest of the run;
        // otherwise it keeps trying (engine/monitor/types.ts) and this is a gap.
        const report = (e: unknown, stopped: boolean) => {
          // Kept and shown: no URL's password in it (a database URL in a postgres error).
          const message = redactText(e instanceof Error ? e.message : String(e))
          this.opts.onLog?.(
            'warn',
            `${field} (${target.name}): ${message}${stopped ? '; the run goes on without it' : ''}`,
          )
          const w = this.warnings.record({
            kind: 'monitor',
            field,
            target: target.name,
            source: spec.kind,
            message,
            stopped,
          })
          if (!w) return
          if (this.t0 === null) this.untold.push(w)
          else this.opts.onWarning?.(w)
        }
        const warn = (e: unknown) => report(e, true)
        let monitor: Monitor
        try {
          monitor = createMonitor(spec, target.name, {
            secrets: this.opts.secrets,
            stacks: this.opts.stacks,
            dockerHost: this.opts.dockerHost,
          })
        } catch (e) {
          warn(e)
          return
        }
        this.monitors.push(monitor)
        monitor
          .start(
            (s) => this.record(s),
            (e) => report(e, false),
          )
          .catch(warn)
      })
    })
  }

  setT0(t0Epoch: number): void {
    this.t0 = t0Epoch
    for (const s of this.pending.splice(0)) this.insert(s)
    this.warnings.setT0(t0Epoch)
    this.tellUntold(t0Epoch)
  }

  private tellUntold(t0: number | null): void {
    for (const w of this.untold.splice(0)) {
      const t = t0 === null ? null : (Date.parse(w.at) - t0) / 1000
      this.opts.onWarning?.({ ...w, t })
    }
  }

  record(s: ResourceSample): void {
    this.opts.onSample?.(s)
    if (this.t0 === null) this.pending.push(s)
    else this.insert(s)
  }

  /**
   * One generator sample per second: the load thread's CPU over the series' second `second` (from
   * its tick), the runner's RSS now. Placed at that second's end on the run's timeline, not when
   * its report arrived: reports held back (the runner's writer waiting for a lock) keep their seconds.
   */
  generator(pid: number, cpuPercent: number | null, second: number): void {
    // null when not Linux or the process just ended; 0 (no VmRSS: a zombie) is no reading either.
    const memory = readRssBytes(pid) || null
    this.record({
      t: this.t0 === null ? Date.now() : this.t0 + (second + 1) * 1000,
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
    this.flushUnwritten()
    if (this.t0 === null) this.pending.length = 0
    this.tellUntold(this.t0)
  }
}
