// Resource samples on the run's timeline: each target's monitor (docker, process, Cloud Foundry)
// and the load generator's own CPU and memory, stored in resource_samples with t = seconds since
// the run's start (negative before it: the idle baseline). Monitors run in the parent, not in the
// runner process, so sampling costs the load generator nothing. A monitor that cannot read its
// source never fails silently: it becomes one of the run's warnings (run_warnings), stored at
// once and told to the live view (onWarning) once its place on the timeline is known. Every
// sample passes ../monitor/bounds.ts first, the same for every kind: values out of range are no
// reading, a monitor's instances are bounded, and what was wrong is one warning of its monitor.
// Once stopped, nothing a monitor still says reaches the database: a monitor that had not answered
// by then is a warning of its own, written while the database is open.
import { redactText } from '../config/redact.ts'
import { monitorsOf, type RunConfig, type Target } from '../config/schema.ts'
import type { MonitorSpec } from '../config/schema-monitor.ts'
import { checkSample, instanceLimit, SAMPLE_BOUNDS } from '../monitor/bounds.ts'
import { createMonitor, type Monitor, type ResourceSample, type StackLocator } from '../monitor/index.ts'
import { readRssBytes } from '../monitor/procfs.ts'
import type { Db } from '../db/db.ts'
import { warningWriter, type NewWarning, type WarningWriter } from '../store/warnings.ts'
import type { ResourcePoint, RunWarning } from '../api/types.ts'
import { ResourceWrites } from './resource-writes.ts'

/** A monitor of the run, as its warnings name it, and what it has said of its samples. */
interface Source {
  field: string
  target: string
  source: string
  instances: { admit(instance: string): boolean }
  said: Set<string>
  /** Its start has not settled yet. */
  starting: boolean
}

/** Samples held until t = 0 is known: as many as the writes hold. */
const MAX_PENDING = 57_600

export class ResourceRecorder {
  private readonly monitors: Monitor[] = []
  private readonly sources: Source[] = []
  private readonly generatorSource: Source
  private readonly pending: { s: ResourceSample; from: Source }[] = []
  private t0: number | null = null
  /** Samples since the last progress event, for the live view. */
  private recent: ResourcePoint[] = []
  private readonly writes: ResourceWrites
  private readonly warnings: WarningWriter
  /** Warnings stored before t = 0 was known: told once it is (or at the end, if it never is). */
  private untold: RunWarning[] = []
  private readonly config: RunConfig
  /** Samples before this moment (epoch ms) are not the run's. */
  private readonly since = Date.now()
  private stopped = false
  private readonly opts: {
    secrets?: Record<string, string>
    /** The stacks of the run's data folder, for monitors that name a `stack`. */
    stacks?: StackLocator
    /** The Docker host setting, for docker monitors. */
    dockerHost?: string
    /** The secrets folder (settings.secretsDir), where a monitor's tokenFile may be. */
    secretsDir?: string
    onLog?: (level: 'warn', message: string) => void
    onWarning?: (warning: RunWarning) => void
    /** Every sample as it is taken (the noise meter reads the targets' CPU). */
    onSample?: (sample: ResourceSample) => void
  }

  constructor(db: Db, runId: number, config: RunConfig, opts: ResourceRecorder['opts']) {
    this.config = config
    this.opts = opts
    this.warnings = warningWriter(db, runId)
    this.writes = new ResourceWrites(db, runId, (t, s) => this.remember(t, s), opts.onLog)
    this.generatorSource = this.source('generator', 'generator', 'generator')
  }

  private source(field: string, target: string, source: string): Source {
    return { field, target, source, instances: instanceLimit(), said: new Set(), starting: false }
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
      monitorsOf(target).forEach((spec, j) => {
        const field = `targets.${i}.monitor${Array.isArray(target.monitor) ? `.${j}` : ''}`
        this.startOne(target, spec, this.source(field, target.name, spec.kind))
      })
    })
  }

  private startOne(target: Target, spec: MonitorSpec, from: Source): void {
    this.sources.push(from)
    let monitor: Monitor
    try {
      monitor = createMonitor(spec, target.name, {
        secrets: this.opts.secrets,
        stacks: this.opts.stacks,
        dockerHost: this.opts.dockerHost,
        secretsDir: this.opts.secretsDir,
      })
    } catch (e) {
      this.report(from, e, true)
      return
    }
    this.monitors.push(monitor)
    from.starting = true
    monitor
      .start(
        (s) => this.record(s, from),
        (e) => this.report(from, e, false),
      )
      .then(
        () => (from.starting = false),
        (e: unknown) => {
          from.starting = false
          this.report(from, e, true)
        },
      )
  }

  /**
   * A monitor's problem as one of the run's warnings. `stopped`: the monitor could not start, so
   * nothing comes from it for the rest of the run; otherwise it keeps trying and this is a gap.
   */
  private report(from: Source, e: unknown, stopped: boolean): void {
    if (this.stopped) return
    // Kept and shown: no URL's password in it (a database URL in a postgres error).
    const message = redactText(e instanceof Error ? e.message : String(e))
    this.opts.onLog?.(
      'warn',
      `${from.field} (${from.target}): ${message}${stopped ? '; the run goes on without it' : ''}`,
    )
    this.warn({
      kind: 'monitor',
      field: from.field,
      target: from.target,
      source: from.source,
      message,
      stopped,
    })
  }

  /** A warning of the run: stored at once, told to the live view once its place on the timeline is known. */
  warn(warning: NewWarning): void {
    if (this.stopped) return
    const w = this.warnings.record(warning)
    if (!w) return
    if (this.t0 === null) this.untold.push(w)
    else this.opts.onWarning?.(w)
  }

  setT0(t0Epoch: number): void {
    this.t0 = t0Epoch
    for (const { s, from } of this.pending.splice(0)) this.store(s, from)
    this.warnings.setT0(t0Epoch)
    this.tellUntold(t0Epoch)
  }

  private tellUntold(t0: number | null): void {
    for (const w of this.untold.splice(0)) {
      const t = t0 === null ? null : (Date.parse(w.at) - t0) / 1000
      this.opts.onWarning?.({ ...w, t })
    }
  }

  /** A sample of a monitor (`from`; the generator's by default), checked before it is kept. */
  record(s: ResourceSample, from: Source = this.generatorSource): void {
    if (this.stopped) return
    const now = Date.now()
    const { sample, problems } = checkSample(s, {
      fromMs: this.since - SAMPLE_BOUNDS.pastMs,
      toMs: now + SAMPLE_BOUNDS.futureMs,
    })
    let kept = sample
    if (kept && !from.instances.admit(kept.instance)) {
      problems.push(
        `more than ${SAMPLE_BOUNDS.instances} instances (series, pods, containers or states): the others were left out`,
      )
      kept = null
    }
    for (const p of problems) {
      if (from.said.has(p)) continue
      from.said.add(p)
      this.report(from, new Error(p), false)
    }
    if (!kept) return
    this.opts.onSample?.(kept)
    if (this.t0 !== null) return this.store(kept, from)
    if (this.pending.length >= MAX_PENDING) this.pending.shift()
    this.pending.push({ s: kept, from })
  }

  private store(s: ResourceSample, _from: Source): void {
    this.writes.add((s.t - (this.t0 ?? s.t)) / 1000, s)
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

  /**
   * The run is over: its monitors stop, what waits is written, and a monitor that had not answered
   * yet is said to have given nothing; whatever any of them says later is dropped.
   */
  async stop(): Promise<void> {
    for (const from of this.sources)
      if (from.starting) this.report(from, new Error('it had not answered when the run ended'), true)
    // What a monitor reads while it stops (Prometheus' last seconds) is the run's; after, nothing.
    await Promise.allSettled(this.monitors.map((m) => m.stop()))
    this.stopped = true
    this.writes.flushAll()
    if (this.t0 === null) this.pending.length = 0
    this.tellUntold(this.t0)
  }
}
