// resource_samples: the targets' and the generator's CPU and memory on the run's timeline,
// database connections per state (the postgres monitor) and named series (the prometheus monitor)
// (t = seconds since the run's start, negative before it: the idle baseline).
import type { ResourcePoint } from '../api/types.ts'
import { figureReadings } from '../metrics/sources.ts'
import { seriesAggregate } from '../metrics/units.ts'
import type { ResourceSample } from '../monitor/types.ts'
import type { Db } from '../db/db.ts'

/** The limits a target ran with, from its monitors' samples (the generator's are not a target's). */
export interface TargetLimits {
  target: string
  memoryLimit: number | null
  cpuLimit: number | null
  /** The database's connection limit (the postgres monitor), when its monitor read one. */
  connectionLimit: number | null
}

/** One prepared insert for a run: the recorder calls it once a second per instance. */
export function resourceWriter(db: Db, runId: number): (t: number, s: ResourceSample) => void {
  const stmt = db.prepare(
    `INSERT INTO resource_samples (run_id, t, target, source, instance, cpu_percent, memory_bytes, memory_limit, cpu_limit, state, connections, metric, value, connection_limit)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      s.metric ?? null,
      s.value ?? null,
      s.connectionLimit ?? null,
    )
  }
}

export function resourcePoints(db: Db, runId: number): ResourcePoint[] {
  return db
    .prepare(
      `SELECT t, target, source, instance, cpu_percent AS cpuPercent, memory_bytes AS memoryBytes,
         connections, metric, value
       FROM resource_samples WHERE run_id = ? ORDER BY t, target, instance, metric`,
    )
    .all(runId) as ResourcePoint[]
}

export function resourceLimits(db: Db, runId: number): TargetLimits[] {
  return db
    .prepare(
      `SELECT target, max(memory_limit) AS memoryLimit, max(cpu_limit) AS cpuLimit,
         max(connection_limit) AS connectionLimit FROM resource_samples
       WHERE run_id = ? AND source <> 'generator' GROUP BY target ORDER BY target`,
    )
    .all(runId) as TargetLimits[]
}

/**
 * The second a sample belongs to, in SQL: the second it covers, as engine/metrics/resource-summary.ts's
 * sampleSecond says (a reading at t covers (t − 1, t]: the second holding t − 0.5).
 */
const SECOND = 'CAST(floor(t - 0.5) AS INTEGER)'

/** One target's own figures in one second of the run: what studies plot against throughput. */
export interface TargetSecond {
  /**
   * CPU % summed over the target's instances (each one's mean in the second); 100 = one core. From
   * one source when it has several (engine/metrics/sources.ts).
   */
  cpuPercent: number | null
  /** Memory summed over its instances (each one's mean in the second), bytes. */
  memoryBytes: number | null
  /** Its database's connections in the second (the postgres monitor), all states and active ones. */
  dbConnections: number | null
  dbActive: number | null
}

/** Per target name and whole second of the run, from its monitors' samples (none for the generator). */
export function targetSeconds(db: Db, runId: number): Map<string, Map<number, TargetSecond>> {
  const out = new Map<string, Map<number, TargetSecond>>()
  const at = (target: string, t: number): TargetSecond => {
    const byT = out.get(target) ?? new Map<number, TargetSecond>()
    out.set(target, byT)
    const row = byT.get(t) ?? { cpuPercent: null, memoryBytes: null, dbConnections: null, dbActive: null }
    byT.set(t, row)
    return row
  }
  // Summed per source: a target with several CPU sources takes its figure source's (metrics/sources.ts).
  const resources = db
    .prepare(
      `SELECT target, source, t, sum(cpu) AS cpu, sum(mem) AS mem FROM (
         SELECT target, source, ${SECOND} AS t, instance, avg(cpu_percent) AS cpu, avg(memory_bytes) AS mem
         FROM resource_samples WHERE run_id = ? AND source NOT IN ('generator', 'postgres')
         GROUP BY target, source, ${SECOND}, instance)
       GROUP BY target, source, t`,
    )
    .all(runId) as { target: string; source: string; t: number; cpu: number | null; mem: number | null }[]
  const readings = resources.map((r) => ({ ...r, cpuPercent: r.cpu, memoryBytes: r.mem }))
  for (const r of figureReadings(readings)) {
    if (r.cpu === null && r.mem === null) continue
    const row = at(r.target, r.t)
    row.cpuPercent = r.cpu
    row.memoryBytes = r.mem === null ? null : Math.round(r.mem)
  }
  const connections = db
    .prepare(
      `SELECT target, t, sum(n) AS total, sum(CASE WHEN instance = 'active' THEN n ELSE 0 END) AS active FROM (
         SELECT target, ${SECOND} AS t, instance, max(connections) AS n
         FROM resource_samples WHERE run_id = ? AND source = 'postgres'
         GROUP BY target, ${SECOND}, instance)
       GROUP BY target, t`,
    )
    .all(runId) as { target: string; t: number; total: number | null; active: number | null }[]
  for (const r of connections) {
    const row = at(r.target, r.t)
    row.dbConnections = r.total
    row.dbActive = r.active
  }
  return out
}

/** One instance's own CPU and memory in one second (its mean there). */
export interface InstanceSecond {
  instance: string
  cpuPercent: number | null
  memoryBytes: number | null
}

/**
 * Per target with two or more instances (a process tree's processes, a replicated stack's
 * containers, Cloud Foundry's instances) and whole second: each instance's own figures, which
 * targetSeconds sums. A target of one instance is its own sum and is left out.
 */
export function instanceSeconds(db: Db, runId: number): Map<string, Map<number, InstanceSecond[]>> {
  const all = db
    .prepare(
      `SELECT target, source, ${SECOND} AS t, instance, avg(cpu_percent) AS cpu, avg(memory_bytes) AS mem
       FROM resource_samples WHERE run_id = ? AND source NOT IN ('generator', 'postgres') AND metric IS NULL
       GROUP BY target, source, ${SECOND}, instance ORDER BY target, t, instance`,
    )
    .all(runId) as {
    target: string
    source: string
    t: number
    instance: string
    cpu: number | null
    mem: number | null
  }[]
  // The instances of the target's figure source, as targetSeconds sums them (metrics/sources.ts).
  const rows = figureReadings(all.map((r) => ({ ...r, cpuPercent: r.cpu, memoryBytes: r.mem })))
  const instances = new Map<string, Set<string>>()
  for (const r of rows) instances.set(r.target, (instances.get(r.target) ?? new Set()).add(r.instance))
  const out = new Map<string, Map<number, InstanceSecond[]>>()
  for (const r of rows) {
    if ((instances.get(r.target)?.size ?? 0) < 2) continue
    const byT = out.get(r.target) ?? new Map<number, InstanceSecond[]>()
    const list = byT.get(r.t) ?? []
    list.push({
      instance: r.instance,
      cpuPercent: r.cpu,
      memoryBytes: r.mem === null ? null : Math.round(r.mem),
    })
    byT.set(r.t, list)
    out.set(r.target, byT)
  }
  return out
}

/**
 * The named series (the prometheus monitor's heap_bytes, a query's) per target, series and whole
 * second of the run: each instance's mean in the second, then the instances summed or averaged as
 * the series' unit says (seriesAggregate in engine/metrics/units.ts).
 */
export function metricSeconds(db: Db, runId: number): Map<string, Map<string, Map<number, number>>> {
  const rows = db
    .prepare(
      `SELECT target, metric, ${SECOND} AS t, avg(value) AS v
       FROM resource_samples WHERE run_id = ? AND metric IS NOT NULL AND value IS NOT NULL
       GROUP BY target, metric, ${SECOND}, instance`,
    )
    .all(runId) as { target: string; metric: string; t: number; v: number }[]
  const sums = new Map<string, Map<string, Map<number, { sum: number; n: number }>>>()
  for (const r of rows) {
    const byMetric = sums.get(r.target) ?? new Map<string, Map<number, { sum: number; n: number }>>()
    sums.set(r.target, byMetric)
    const byT = byMetric.get(r.metric) ?? new Map<number, { sum: number; n: number }>()
    byMetric.set(r.metric, byT)
    const at = byT.get(r.t) ?? { sum: 0, n: 0 }
    byT.set(r.t, { sum: at.sum + r.v, n: at.n + 1 })
  }
  const out = new Map<string, Map<string, Map<number, number>>>()
  for (const [target, byMetric] of sums) {
    const metrics = new Map<string, Map<number, number>>()
    for (const [metric, byT] of byMetric) {
      const mean = seriesAggregate(metric) === 'mean'
      metrics.set(metric, new Map([...byT].map(([t, a]) => [t, mean ? a.sum / a.n : a.sum])))
    }
    out.set(target, metrics)
  }
  return out
}
