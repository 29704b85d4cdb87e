// Studies (sweeps): one row per study, its runs marked with the study and the swept value.
import { ApiError } from '../api/errors.ts'
import type { StudyListItem } from '../api/types.ts'
import type { Db } from './db.ts'

export interface StudyRow {
  id: number
  name: string
  path: string
  values: number[]
  /** The study's runs, by swept value. */
  runs: { runId: number; value: number }[]
}

export function createStudy(
  db: Db,
  study: { name: string; path: string; values: readonly number[] },
): number {
  const info = db
    .prepare(`INSERT INTO studies (name, kind, path, "values", created_at) VALUES (?, 'sweep', ?, ?, ?)`)
    .run(study.name, study.path, JSON.stringify(study.values), new Date().toISOString())
  return Number(info.lastInsertRowid)
}

/** Mark a run as the study's run for one swept value. */
export function addStudyRun(db: Db, studyId: number, runId: number, value: number): void {
  db.prepare('UPDATE runs SET study_id = ?, sweep_value = ? WHERE id = ?').run(studyId, value, runId)
}

/** Every study, newest first, with its run ids. */
export function listStudies(db: Db): StudyListItem[] {
  const rows = db
    .prepare(
      `SELECT s.id, s.name, s.path, s."values" AS v, s.created_at, group_concat(r.id) AS runs
       FROM studies s LEFT JOIN runs r ON r.study_id = s.id GROUP BY s.id ORDER BY s.id DESC`,
    )
    .all() as {
    id: number
    name: string
    path: string
    v: string
    created_at: string
    runs: string | null
  }[]
  return rows.map((r) => ({
    studyId: r.id,
    name: r.name,
    path: r.path,
    values: JSON.parse(r.v) as number[],
    runIds: r.runs ? r.runs.split(',').map(Number) : [],
    createdAt: r.created_at,
  }))
}

/** One study and its runs; ApiError('not-found') when there is none. */
export function readStudy(db: Db, studyId: number): StudyRow {
  const study = db.prepare('SELECT id, name, path, "values" AS v FROM studies WHERE id = ?').get(studyId) as
    { id: number; name: string; path: string; v: string } | undefined
  if (!study) throw new ApiError('not-found', `study ${studyId} does not exist`)
  const runs = db
    .prepare('SELECT id, sweep_value FROM runs WHERE study_id = ? ORDER BY sweep_value')
    .all(studyId) as { id: number; sweep_value: number }[]
  return {
    id: study.id,
    name: study.name,
    path: study.path,
    values: JSON.parse(study.v) as number[],
    runs: runs.map((r) => ({ runId: r.id, value: r.sweep_value })),
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

/** The study a run is one value of, with the swept path; null for a run of no study. */
export function sweepOf(db: Db, runId: number): { studyId: number; path: string; value: number } | null {
  const row = db
    .prepare(
      'SELECT s.id AS studyId, s.path AS path, r.sweep_value AS value FROM runs r JOIN studies s ON s.id = r.study_id WHERE r.id = ?',
    )
    .get(runId) as { studyId: number; path: string; value: number } | undefined
  return row ?? null
}
