// resource_samples: the targets' and the generator's CPU and memory on the run's timeline, and
// database connections per state (the postgres monitor)
// (t = seconds since the run's start, negative before it: the idle baseline).
import type { ResourcePoint } from '../api/types.ts'
import type { ResourceSample } from '../monitor/types.ts'
import type { Db } from './db.ts'

/** The limits a target ran with, from its monitors' samples (the generator's are not a target's). */
export interface TargetLimits {
  target: string
  memoryLimit: number | null
  cpuLimit: number | null
}

/** One prepared insert for a run: the recorder calls it once a second per instance. */
export function resourceWriter(db: Db, runId: number): (t: number, s: ResourceSample) => void {
  const stmt = db.prepare(
    `INSERT INTO resource_samples (run_id, t, target, source, instance, cpu_percent, memory_bytes, memory_limit, cpu_limit, state, connections)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  return (t, s) => {
    stmt.run(
      runId,
      t,
      s.target,
      s.source,
      s.instance,
      s.cpuPercent,
      s.memoryBytes,
      s.memoryLimitBytes,
      s.cpuLimit,
      s.state,
      s.connections ?? null,
    )
  }
}

export function resourcePoints(db: Db, runId: number): ResourcePoint[] {
  return db
    .prepare(
      `SELECT t, target, source, instance, cpu_percent AS cpuPercent, memory_bytes AS memoryBytes,
         connections
       FROM resource_samples WHERE run_id = ? ORDER BY t, target, instance`,
    )
    .all(runId) as ResourcePoint[]
}

export function resourceLimits(db: Db, runId: number): TargetLimits[] {
  return db
    .prepare(
      `SELECT target, max(memory_limit) AS memoryLimit, max(cpu_limit) AS cpuLimit FROM resource_samples
       WHERE run_id = ? AND source <> 'generator' GROUP BY target ORDER BY target`,
    )
    .all(runId) as TargetLimits[]
}
