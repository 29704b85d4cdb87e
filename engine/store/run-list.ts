// The run list: search, filters, paging. One broken row (bad JSON in a column) must never fail
// the list: its fields fall back to empty values, and opening the run names the broken column.
import type { z } from 'zod'
import type { RunListQuerySchema } from '../api/schemas.ts'
import type { RunListItem, RunStatus } from '../api/types.ts'
import { parseCorrelationId } from './correlation.ts'
import type { Db } from '../db/db.ts'
import { configOrNull, likePattern } from './history-rows.ts'
import { parseColumnOr, TagsSchema } from './schemas.ts'

type ListQuery = z.output<typeof RunListQuerySchema>

interface ListRow {
  id: number
  name: string
  status: RunStatus
  started_at: string
  ended_at: string | null
  tags: string
  config: string
  targets: string | null
  requests: number | null
  seconds: number | null
}

// Tags as a JSON array SQLite can read even when the column is broken.
const SAFE_TAGS = "(CASE WHEN json_valid(r.tags) AND json_type(r.tags) = 'array' THEN r.tags ELSE '[]' END)"

function whereClause(q: ListQuery): { sql: string; params: Record<string, string | number> } {
  const where: string[] = []
  const params: Record<string, string | number> = {}
  if (q.search !== undefined && q.search.trim() !== '') {
    const text = q.search.trim()
    params.like = likePattern(text)
    const alternatives = [
      "r.name LIKE @like ESCAPE '\\'",
      `EXISTS (SELECT 1 FROM json_each(${SAFE_TAGS}) WHERE value LIKE @like ESCAPE '\\')`,
      "EXISTS (SELECT 1 FROM run_targets t WHERE t.run_id = r.id AND t.target LIKE @like ESCAPE '\\')",
    ]
    // A run id ("42", "#42") or any correlation id of the run finds it too.
    const id = /^#?(\d{1,15})$/.exec(text)
    if (id?.[1]) {
      params.id = Number(id[1])
      alternatives.push('r.id = @id')
    }
    const correlation = parseCorrelationId(text)
    if (correlation) {
      params.prefix = correlation.prefix
      alternatives.push('r.correlation_prefix = @prefix')
    }
    where.push(`(${alternatives.join(' OR ')})`)
  }
  if (q.tags !== undefined && q.tags.length > 0) {
    // Every wanted tag, as one JSON parameter: the statement's size does not grow with the filter
    // (a clause per tag hit SQLite's expression limits at a few hundred tags).
    const wanted = [...new Set(q.tags)]
    params.tags = JSON.stringify(wanted)
    params.tagCount = wanted.length
    where.push(
      `(SELECT count(DISTINCT value) FROM json_each(${SAFE_TAGS}) WHERE value IN (SELECT value FROM json_each(@tags))) = @tagCount`,
    )
  }
  if (q.status !== undefined) {
    params.status = q.status
    where.push('r.status = @status')
  }
  if (q.target !== undefined) {
    params.target = q.target
    where.push('EXISTS (SELECT 1 FROM run_targets t WHERE t.run_id = r.id AND t.target = @target)')
  }
  return { sql: where.length > 0 ? `WHERE ${where.join(' AND ')}` : '', params }
}

/**
 * How long an ended run ran: the seconds its timeline covers (its last second + 1, as the live
 * view's elapsed read at its end), so a 40 s run reads 0:40 in History as it did live, not its
 * wall clock with the runner's start and end around it (0:41). The wall clock only when it
 * recorded no second (it failed or was stopped before its first).
 */
function durationSeconds(row: ListRow): number | null {
  if (row.ended_at === null) return null
  if (row.seconds !== null) return row.seconds
  const ms = Date.parse(row.ended_at) - Date.parse(row.started_at)
  return Number.isFinite(ms) ? Math.max(0, ms / 1000) : null
}

function toItem(row: ListRow): RunListItem {
  let targets = row.targets === null ? [] : row.targets.split('\u001f')
  // Before the runner has written run_targets rows, the config still says what will be measured.
  if (targets.length === 0) targets = configOrNull(row.config)?.config.targets.map((t) => t.name) ?? []
  return {
    runId: row.id,
    name: row.name,
    status: row.status,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    targets,
    tags: parseColumnOr(row.tags, TagsSchema, []),
    requests: Number(row.requests ?? 0) || 0,
    durationSeconds: durationSeconds(row),
  }
}

export function listRuns(db: Db, q: ListQuery): { items: RunListItem[]; total: number } {
  const { sql, params } = whereClause(q)
  const total = (db.prepare(`SELECT count(*) AS n FROM runs r ${sql}`).get(params) as { n: number }).n
  // Requests: the summaries' totals once written; while a run is going, the per-second series.
  const rows = db
    .prepare(
      `SELECT r.id, r.name, r.status, r.started_at, r.ended_at, r.tags, r.config,
         (SELECT group_concat(target, char(31)) FROM
            (SELECT target FROM run_targets WHERE run_id = r.id GROUP BY target_index ORDER BY target_index)) AS targets,
         coalesce(
           (SELECT sum(CASE WHEN json_valid(summary) THEN json_extract(summary, '$.requests') END)
              FROM run_targets WHERE run_id = r.id),
           (SELECT sum(requests) FROM series WHERE run_id = r.id)) AS requests,
         (SELECT max(t) + 1 FROM series WHERE run_id = r.id) AS seconds
       FROM runs r ${sql}
       ORDER BY r.started_at DESC, r.id DESC
       LIMIT @limit OFFSET @offset`,
    )
    .all({ ...params, limit: q.limit, offset: q.offset }) as ListRow[]
  return { items: rows.map(toItem), total }
}
