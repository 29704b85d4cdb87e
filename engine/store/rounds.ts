// A run's rounds in the local database: each round's run_targets rows (written as the round starts,
// with each segment's place in the run), the noise each segment ran in, and how the rounds ended
// (015_rounds_noise.sql); and the outcome every screen reads back (RoundsOutcome).
import type { RoundNoise, RoundsOutcome, TargetRoundSummary } from '../api/types.ts'
import { redactUrl } from '../config/redact.ts'
import { roundsPlan } from '../config/rounds.ts'
import type { RunConfig } from '../config/schema.ts'
import type { Segment } from '../config/segments.ts'
import { DEFAULT_MIN_EFFECT } from '../metrics/compare-metric.ts'
import { noiseWords } from '../metrics/noise.ts'
import { stopWords } from '../metrics/rounds-words.ts'
import { decideRounds, roundsProgress, worstWidth } from '../metrics/stopping.ts'
import type { Db } from '../db/db.ts'
import { StoredStopSchema, type StoredStop } from './rounds-schemas.ts'
import { parseColumnOr } from './schemas.ts'

/** A round's rows (one per segment), before it starts: INSERT OR IGNORE, so a repeat is harmless. */
export function insertRoundRows(
  db: Db,
  runId: number,
  config: RunConfig,
  segments: readonly Segment[],
): void {
  const insert = db.prepare(
    'INSERT OR IGNORE INTO run_targets (run_id, target_index, round, target, url, segment) VALUES (?, ?, ?, ?, ?, ?)',
  )
  for (const seg of segments)
    insert.run(
      runId,
      seg.targetIndex,
      seg.round,
      seg.target,
      redactUrl(config.targets[seg.targetIndex]!.url),
      seg.index,
    )
}

/** The noise one segment ran in (judged by metrics/noise.ts). */
export function setSegmentNoise(
  db: Db,
  runId: number,
  targetIndex: number,
  round: number,
  noise: RoundNoise,
): void {
  db.prepare('UPDATE run_targets SET noise = ? WHERE run_id = ? AND target_index = ? AND round = ?').run(
    JSON.stringify(noise),
    runId,
    targetIndex,
    round,
  )
}

/** How the rounds ended. */
export function setRoundsStop(db: Db, runId: number, stop: StoredStop): void {
  db.prepare('UPDATE runs SET rounds = ? WHERE id = ?').run(JSON.stringify(stop), runId)
}

export function roundsStop(db: Db, runId: number): StoredStop | null {
  const text = db.prepare('SELECT rounds FROM runs WHERE id = ?').pluck().get(runId) as string | null
  return parseColumnOr(text ?? null, StoredStopSchema, null)
}

/** Each round's targets in the order they ran (by segment; a run before 015 by config order). */
function ordersOf(results: readonly TargetRoundSummary[]): RoundsOutcome['orders'] {
  const byRound = new Map<number, TargetRoundSummary[]>()
  for (const r of results) byRound.set(r.round, [...(byRound.get(r.round) ?? []), r])
  return [...byRound]
    .sort(([a], [b]) => a - b)
    .map(([round, rs]) => ({
      round,
      targets: [...rs].sort((a, b) => (a.segment ?? 0) - (b.segment ?? 0)).map((r) => r.target),
    }))
}

/**
 * A run's rounds as every screen reads them: the order each round ran in, how many ran and why
 * they stopped (the stored decision, or, for a run without one, what its rows say), its noise.
 */
export function roundsOutcome(
  config: RunConfig,
  results: readonly TargetRoundSummary[],
  stored: StoredStop | null,
  status: string,
): RoundsOutcome {
  const plan = roundsPlan(config)
  const names = config.targets.map((t) => t.name)
  const kept = results.filter((r) => !r.noise?.repeated)
  const round = new Set(results.map((r) => r.round)).size
  const decision = decideRounds({
    plan,
    targets: names.map((target) => ({ target, rounds: kept.filter((r) => r.target === target) })),
    minEffect: DEFAULT_MIN_EFFECT,
    round,
    elapsedSeconds: 0,
    nextRoundSeconds: 0,
  })
  const widths = stored?.widths.length ? stored.widths : decision.widths
  const progress = roundsProgress(
    plan,
    stored?.round ?? round,
    { kept: stored?.kept ?? decision.kept, widths, worst: worstWidth(widths) },
    names.length > 2,
  )
  const reason =
    stored?.reason ??
    (status === 'running' ? null : !plan.adaptive && round >= plan.max ? 'fixed' : 'stopped')
  const disturbed = new Set(results.filter((r) => r.noise?.disturbed).map((r) => r.round)).size
  const repeated = new Set(results.filter((r) => r.noise?.repeated).map((r) => r.round)).size
  const outcome = {
    ...progress,
    schedule: config.schedule,
    seed: config.schedule === 'randomized' ? (config.scheduleSeed ?? null) : null,
    orders: ordersOf(results),
    reason,
    min: plan.min,
    budgetMinutes: plan.budgetMinutes,
    disturbed,
    repeated,
    noise: noiseWords(results, plan.skipDisturbed),
  }
  return { ...outcome, stop: stopWords(outcome) }
}
