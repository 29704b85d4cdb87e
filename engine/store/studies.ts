// Studies (sweeps): one row per study with the settings it sweeps (its axes), its runs marked with
// the study and the values they ran with.
import { ApiError } from '../api/errors.ts'
import type { StudyAxis, StudyListItem, StudySlo, SweepValue } from '../api/types.ts'
import { axisName, valueLabel } from '../config/sweep.ts'
import type { Db } from '../db/db.ts'

export interface StudyRow {
  id: number
  name: string
  path: string
  values: SweepValue[]
  axes: StudyAxis[]
  /** The sweep's latency target, if it named one. */
  slo: StudySlo | null
  /** The study's runs: the values they ran with (one per axis) and the first axis's position. */
  runs: { runId: number; value: number; point: SweepValue[] }[]
}

/** The first axis's path and values as stored before grids (a study of one numeric setting). */
type AxisInput = Pick<StudyAxis, 'path' | 'values'>

function axisOf(a: AxisInput): StudyAxis {
  return {
    path: a.path,
    name: axisName(a.path),
    values: a.values,
    labels: a.values.map(valueLabel),
    numeric: a.values.every((v) => typeof v === 'number'),
  }
}

function readAxes(path: string, values: string, axes: string | null): StudyAxis[] {
  const list = axes
    ? (JSON.parse(axes) as AxisInput[])
    : [{ path, values: JSON.parse(values) as SweepValue[] }]
  return list.map(axisOf)
}

export function createStudy(
  db: Db,
  study: { name: string; axes: readonly AxisInput[]; slo?: StudySlo | null },
): number {
  const first = study.axes[0]
  if (!first) throw new Error('a study sweeps at least one setting')
  const info = db
    .prepare(
      `INSERT INTO studies (name, kind, path, "values", axes, slo, created_at) VALUES (?, 'sweep', ?, ?, ?, ?, ?)`,
    )
    .run(
      study.name,
      first.path,
      JSON.stringify(first.values),
      JSON.stringify(study.axes.map((a) => ({ path: a.path, values: a.values }))),
      study.slo ? JSON.stringify(study.slo) : null,
      new Date().toISOString(),
    )
  return Number(info.lastInsertRowid)
}

/** Mark a run as the study's run for one value (one per axis); `position` places it on the first axis. */
export function addStudyRun(
  db: Db,
  studyId: number,
  runId: number,
  point: readonly SweepValue[],
  position: number,
): void {
  db.prepare('UPDATE runs SET study_id = ?, sweep_value = ?, sweep_point = ? WHERE id = ?').run(
    studyId,
    position,
    JSON.stringify(point),
    runId,
  )
}

/** Every study, newest first, with its run ids. */
export function listStudies(db: Db): StudyListItem[] {
  const rows = db
    .prepare(
      `SELECT s.id, s.name, s.path, s."values" AS v, s.axes, s.created_at, group_concat(r.id) AS runs
       FROM studies s LEFT JOIN runs r ON r.study_id = s.id GROUP BY s.id ORDER BY s.id DESC`,
    )
    .all() as {
    id: number
    name: string
    path: string
    v: string
    axes: string | null
    created_at: string
    runs: string | null
  }[]
  return rows.map((r) => {
    const axes = readAxes(r.path, r.v, r.axes)
    return {
      studyId: r.id,
      name: r.name,
      path: r.path,
      values: axes[0]!.values,
      axes,
      size: axes.reduce((n, a) => n * a.values.length, 1),
      runIds: r.runs ? r.runs.split(',').map(Number) : [],
      createdAt: r.created_at,
    }
  })
}

/** A stored latency target; one that does not read as one is none (the study still shows). */
function readSlo(text: string): StudySlo | null {
  try {
    const v = JSON.parse(text) as Partial<StudySlo>
    return typeof v.metric === 'string' && typeof v.ms === 'number' ? { metric: v.metric, ms: v.ms } : null
  } catch {
    return null
  }
}

/** One study and its runs; ApiError('not-found') when there is none. */
export function readStudy(db: Db, studyId: number): StudyRow {
  const study = db
    .prepare('SELECT id, name, path, "values" AS v, axes, slo FROM studies WHERE id = ?')
    .get(studyId) as
    { id: number; name: string; path: string; v: string; axes: string | null; slo: string | null } | undefined
  if (!study) throw new ApiError('not-found', `study ${studyId} does not exist`)
  const axes = readAxes(study.path, study.v, study.axes)
  const runs = db
    .prepare('SELECT id, sweep_value, sweep_point FROM runs WHERE study_id = ? ORDER BY id')
    .all(studyId) as { id: number; sweep_value: number; sweep_point: string | null }[]
  return {
    id: study.id,
    name: study.name,
    path: study.path,
    values: axes[0]!.values,
    axes,
    slo: study.slo ? readSlo(study.slo) : null,
    runs: runs.map((r) => ({
      runId: r.id,
      value: r.sweep_value,
      point: r.sweep_point ? (JSON.parse(r.sweep_point) as SweepValue[]) : [r.sweep_value],
    })),
  }
}

/** The studies any of these runs belong to. */
export function studyIdsOfRuns(db: Db, runIds: readonly number[]): number[] {
  if (runIds.length === 0) return []
  return db
    .prepare(
      `SELECT DISTINCT study_id FROM runs WHERE study_id IS NOT NULL AND id IN (${runIds.map(() => '?').join(',')})`,
    )
    .pluck()
    .all(...runIds) as number[]
}

/**
 * The study a run is one value of, with the swept path and the run's position on it; `by` names
 * the run's value of a grid's second setting ("WORKERS=4"), null for a study of one setting.
 */
export function sweepOf(
  db: Db,
  runId: number,
): { studyId: number; path: string; value: number; by: string | null } | null {
  const row = db
    .prepare(
      'SELECT s.id AS studyId, s.path AS path, s.axes AS axes, r.sweep_value AS value, r.sweep_point AS point FROM runs r JOIN studies s ON s.id = r.study_id WHERE r.id = ?',
    )
    .get(runId) as
    { studyId: number; path: string; axes: string | null; value: number; point: string | null } | undefined
  if (!row) return null
  const second = row.axes ? (JSON.parse(row.axes) as AxisInput[])[1] : undefined
  const byValue = second && row.point ? (JSON.parse(row.point) as SweepValue[])[1] : undefined
  const by = second && byValue !== undefined ? `${axisName(second.path)}=${valueLabel(byValue)}` : null
  return { studyId: row.studyId, path: row.path, value: row.value, by }
}
