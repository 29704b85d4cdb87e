// What the runner's ledger writer thread (engine/runner/writer.ts) writes for one run besides its
// requests (those are blocks: engine/ledger/blocks.ts `blockInserter`): a series row per second,
// and the segment's summary and histograms when it ends. Statements are prepared once.
import type { SeriesPoint, TargetRoundSummary } from '../api/types.ts'
import { moveBlocksToPhase } from '../ledger/blocks.ts'
import type { Db, Statement } from '../db/db.ts'

export class LedgerWriter {
  private readonly runId: number
  private readonly series: Statement
  private readonly summary: Statement
  private readonly db: Db

  constructor(db: Db, runId: number) {
    this.runId = runId
    this.db = db
    this.series = db.prepare(
      `INSERT OR REPLACE INTO series (run_id, target_index, round, t, phase, connections, requests, errors, errors_json, status_json,
       bytes, mean, p50, p90, p95, p99, p999, max, generator_cpu, agents) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    this.summary = db.prepare(
      `UPDATE run_targets SET summary = ?, histogram = ?, corrected_histogram = ? WHERE run_id = ? AND target_index = ? AND round = ?`,
    )
  }

  /**
   * load.warmup: auto found a segment's warm-up: its series rows before second `from` and its
   * requests (the blocks written in those seconds) move to the warm-up phase. Called inside the
   * transaction that writes the segment's summary; the count of blocks moved
   * (engine/ledger/blocks.ts moveBlocksToPhase).
   */
  moveToWarmup(
    targetIndex: number,
    round: number,
    blocks: readonly number[],
    from: number,
    phase: number,
  ): number {
    this.db
      .prepare('UPDATE series SET phase = ? WHERE run_id = ? AND target_index = ? AND round = ? AND t < ?')
      .run(phase, this.runId, targetIndex, round, from)
    return moveBlocksToPhase(this.db, this.runId, blocks, phase)
  }

  /**
   * One second of one segment; `phase` is the phase's index, `statusJson` the status classes,
   * `agents` how many load agents' reports a merged second holds (null: one process).
   */
  insertSeries(
    p: SeriesPoint,
    targetIndex: number,
    phase: number,
    statusJson: string,
    agents: number | null = null,
  ): void {
    this.series.run(
      this.runId,
      targetIndex,
      p.round,
      p.t,
      phase,
      p.connections,
      p.requests,
      p.errors,
      JSON.stringify(p.errorsByKind),
      statusJson,
      p.bytes,
      // Stored as 0 (the columns are NOT NULL); read back as null where no response came (history-rows.ts).
      p.mean ?? 0,
      p.p50 ?? 0,
      p.p90 ?? 0,
      p.p95 ?? 0,
      p.p99 ?? 0,
      p.p999 ?? 0,
      p.max ?? 0,
      p.generatorCpu,
      agents,
    )
  }

  /** The segment's summary, its histograms in their own columns. */
  writeSummary(targetIndex: number, summary: TargetRoundSummary): void {
    const { histogram, correctedHistogram, ...rest } = summary
    this.summary.run(
      JSON.stringify(rest),
      histogram,
      correctedHistogram,
      this.runId,
      targetIndex,
      summary.round,
    )
  }
}
