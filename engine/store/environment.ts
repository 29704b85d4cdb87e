// The environment a run was measured in (one row per run): host, CPU, versions, and free-form
// details (the targets' images and limits). The caller gathers it before the run's rows are
// written (engine/runner/environment.ts); the store only writes and reads it.
import { redactText } from '../config/redact.ts'
import type { Db } from '../db/db.ts'

export interface EnvironmentInfo {
  host: string
  cpu: string
  cores: number
  os: string
  node: string
  app: string
  /** Free-form JSON: `targets` (name, url, monitor, image, limits…) and whatever else was recorded. */
  details: Record<string, unknown>
}

/** The row as stored: `details` is the JSON text, unparsed (exports copy it as it is). */
export type EnvironmentRow = Omit<EnvironmentInfo, 'details'> & { details: string }

export function insertEnvironment(db: Db, runId: number, env: EnvironmentRow): void {
  db.prepare(
    'INSERT INTO environment (run_id, host, cpu, cores, os, node, app, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(runId, env.host, env.cpu, env.cores, env.os, env.node, env.app, env.details)
}

/** The row; a URL password in details (a run stored before passwords were masked) is masked. */
export function environmentRow(db: Db, runId: number): EnvironmentRow | undefined {
  const row = db
    .prepare('SELECT host, cpu, cores, os, node, app, details FROM environment WHERE run_id = ?')
    .get(runId) as EnvironmentRow | undefined
  return row && { ...row, details: redactText(row.details) }
}

/** The environment with its details parsed; unreadable details are kept as `{ unreadable: text }`. */
export function readEnvironment(db: Db, runId: number): EnvironmentInfo | null {
  const row = environmentRow(db, runId)
  if (!row) return null
  let details: Record<string, unknown> = {}
  try {
    const parsed: unknown = JSON.parse(row.details)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      details = parsed as Record<string, unknown>
  } catch {
    details = { unreadable: row.details }
  }
  return { ...row, details }
}
