// The runner's parent's view of a run's rounds: each segment's summary and noise as they come, the
// decision after each round of rounds until precise (engine/metrics/stopping.ts) with the next
// round's rows written before the runner is told to go on, where the rounds stand for the live
// view, and at the run's end the disturbed rounds (noise.ts: the host rule as measured, robust
// outliers over all rounds) and how the rounds ended, stored with the run.
import { availableParallelism } from 'node:os'
import type { RoundNoise, RoundsProgress, StopReason, TargetRoundSummary } from '../api/types.ts'
import { MAX_ROUNDS, roundsPlan, type RoundsPlan } from '../config/rounds.ts'
import type { RunConfig } from '../config/schema.ts'
import { roundSegments } from '../config/segments.ts'
import { DEFAULT_MIN_EFFECT } from '../metrics/compare-metric.ts'
import { judgeHost, outlierRounds, type MeasuredNoise } from '../metrics/noise.ts'
import { decideRounds, roundsProgress, type StopDecision } from '../metrics/stopping.ts'
import type { Db } from '../db/db.ts'
import { insertRoundRows, setRoundsStop, setSegmentNoise } from '../store/rounds.ts'

type Result = TargetRoundSummary & { noise: RoundNoise }

const blankNoise = (): RoundNoise =>
  judgeHost({
    loadAverage: null,
    cores: availableParallelism(),
    stealPercent: null,
    otherCpuPercent: null,
    generatorCpuPercent: null,
    sendLagMs: null,
    targetCpuPercent: null,
    targetCpuLimitPercent: null,
  })

export class RoundsJudge {
  readonly plan: RoundsPlan
  private readonly db: Db
  private readonly runId: number
  private readonly config: RunConfig
  private readonly names: string[]
  /** Each finished segment by `${targetIndex}:${round}`. */
  private readonly results = new Map<string, Result>()
  private startedAt: number | null = null
  private stopped: StopReason | null = null
  private live: RoundsProgress | undefined
  private segments: number

  constructor(db: Db, runId: number, config: RunConfig) {
    this.db = db
    this.runId = runId
    this.config = config
    this.plan = roundsPlan(config)
    this.names = config.targets.map((t) => t.name)
    this.segments = this.plan.adaptive ? config.targets.length : 0
  }

  started(atMs: number): void {
    this.startedAt = atMs
  }

  /** Where the rounds stand after the last full round: for each progress event. */
  get progress(): RoundsProgress | undefined {
    return this.live
  }

  /** A segment's summary and the noise it ran in (null where nothing was measured). */
  segment(summary: TargetRoundSummary, measured: MeasuredNoise | null): void {
    const targetIndex = this.names.indexOf(summary.target)
    if (targetIndex < 0) return
    const noise = measured ? judgeHost(measured) : blankNoise()
    this.results.set(`${targetIndex}:${summary.round}`, { ...summary, noise })
    setSegmentNoise(this.db, this.runId, targetIndex, summary.round, noise)
    // A fixed number of interleaved or randomized rounds: where they stand after each full round.
    if (!this.plan.adaptive && this.config.schedule !== 'sequential' && this.roundDone(summary.round))
      this.live = this.judge(summary.round).progress
  }

  private roundDone(round: number): boolean {
    return this.names.every((_, i) => this.results.has(`${i}:${round}`))
  }

  /** The rounds in the figures, per target (a repeated round is not). */
  private kept(): { target: string; rounds: Result[] }[] {
    const all = [...this.results.values()].filter((r) => !r.noise.repeated)
    return this.names.map((target) => ({
      target,
      rounds: all.filter((r) => r.target === target).sort((a, b) => a.round - b.round),
    }))
  }

  private judge(round: number): { decision: StopDecision; progress: RoundsProgress } {
    const elapsed = this.startedAt === null ? 0 : (Date.now() - this.startedAt) / 1000
    const decision = decideRounds({
      plan: this.plan,
      targets: this.kept(),
      minEffect: DEFAULT_MIN_EFFECT,
      round,
      elapsedSeconds: elapsed,
      nextRoundSeconds: round > 0 ? elapsed / round : 0,
    })
    return { decision, progress: roundsProgress(this.plan, round, decision, this.names.length > 2) }
  }

  /** skipDisturbed: a round the host disturbed, or whose ratio is an outlier so far, is repeated. */
  private repeatIfDisturbed(round: number): void {
    if (!this.plan.skipDisturbed) return
    const rows = this.names.map((_, i) => this.results.get(`${i}:${round}`)).filter((r) => r !== undefined)
    const outliers = outlierRounds(this.kept()).get(round) ?? []
    if (!rows.some((r) => r.noise.disturbed) && outliers.length === 0) return
    for (const r of rows) {
      r.noise = { ...r.noise, disturbed: true, reasons: [...r.noise.reasons, ...outliers], repeated: true }
      setSegmentNoise(this.db, this.runId, this.names.indexOf(r.target), round, r.noise)
    }
  }

  /**
   * Rounds until precise, after round `round`: whether another runs. Its rows are written first, so
   * every reader sees the round as soon as it starts.
   */
  roundEnd(round: number): boolean {
    this.repeatIfDisturbed(round)
    const { decision, progress } = this.judge(round)
    this.live = progress
    const stop = decision.stop || round >= Math.min(MAX_ROUNDS, 2 * this.plan.max)
    if (stop) {
      this.stopped = decision.reason ?? 'max'
      return false
    }
    insertRoundRows(this.db, this.runId, this.config, roundSegments(this.config, round + 1, this.segments))
    this.segments += this.names.length
    return true
  }

  /**
   * The run's end: rounds whose ratio is a robust outlier among all rounds are marked disturbed
   * (kept in the figures), and how the rounds ended is stored.
   */
  finish(status: string): void {
    for (const [round, reasons] of outlierRounds(this.kept())) {
      this.names.forEach((_, i) => {
        const r = this.results.get(`${i}:${round}`)
        if (!r) return
        r.noise = { ...r.noise, disturbed: true, reasons: [...r.noise.reasons, ...reasons] }
        setSegmentNoise(this.db, this.runId, i, round, r.noise)
      })
    }
    const rounds = new Set([...this.results.values()].map((r) => r.round))
    const round = rounds.size
    const { decision } = this.judge(round)
    const reason: StopReason =
      this.stopped ??
      (!this.plan.adaptive && status === 'done' && round >= this.plan.max ? 'fixed' : 'stopped')
    setRoundsStop(this.db, this.runId, {
      reason,
      round,
      kept: decision.kept,
      widths: decision.widths,
    })
  }
}
