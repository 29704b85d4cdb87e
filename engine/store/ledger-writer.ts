// What the runner's ledger writer thread (engine/runner/writer.ts) writes for one run: a block per
// batch of requests during a segment, a series row per second, and the segment's summary and
// histograms when it ends. Statements are prepared once: a block insert is on the hot path.
import type { SeriesPoint, TargetRoundSummary } from '../api/types.ts'
import { encodeBlock, type BlockColumns } from './blocks.ts'
import type { Db, Statement } from './db.ts'

export class LedgerWriter {
  private readonly runId: number
  private readonly block: Statement
  private readonly series: Statement
  private readonly summary: Statement

  constructor(db: Db, runId: number) {
    this.runId = runId
    this.block = db.prepare(
      'INSERT INTO sample_blocks (run_id, target_index, round, count, data) VALUES (?, ?, ?, ?, ?)',
    )
    this.series = db.prepare(
      `INSERT OR REPLACE INTO series (run_id, target_index, round, t, phase, connections, requests, errors, errors_json, status_json,
       bytes, mean, p50, p90, p95, p99, p999, max, generator_cpu, agents) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    this.summary = db.prepare(
      `UPDATE run_targets SET summary = ?, histogram = ?, corrected_histogram = ? WHERE run_id = ? AND target_index = ? AND round = ?`,
    )
  }

  /** One batch of requests as one block (expanded into `samples` rows after the run, expander.ts). */
  insertBlock(targetIndex: number, round: number, c: BlockColumns): void {
    this.block.run(this.runId, targetIndex, round, c.count, encodeBlock(c))
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
      // Stored as 0 (the columns are NOT NULL); read back as null where no response came (rows.ts).
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
