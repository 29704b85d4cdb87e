// What each target of a run was limited by (engine/metrics/limiting.ts), from what the run stored:
// the target's measured seconds (series rows outside warm-up phases, load.warmup: auto's included)
// with its monitors' CPU, memory and database connections in them and the generator's CPU, the
// limits its monitors read, the host's cores, and its rounds' errors and schedule.
import type { LimitedBy, TargetRoundSummary } from '../api/types.ts'
import { compilePlan } from '../config/compile.ts'
import type { RunConfig } from '../config/schema.ts'
import { roundsFigures } from '../metrics/figures.ts'
import { limitedBy, type LimitInputs, type LimitSecond } from '../metrics/limiting.ts'
import type { Db } from '../db/db.ts'
import { readEnvironment } from './environment.ts'
import { resourceLimits, targetSeconds } from './resource-samples.ts'

/** Sources that run on this host: without a limit of their own, a target there may use its cores. */
const LOCAL_SOURCES = new Set(['docker', 'process'])

function measuredSeconds(
  db: Db,
  runId: number,
  config: RunConfig,
): Map<number, { t: number; cpu: number | null }[]> {
  const warmup = compilePlan(config.load).warmup
  const rows = db
    .prepare('SELECT target_index, t, phase, generator_cpu AS cpu FROM series WHERE run_id = ? ORDER BY t')
    .all(runId) as { target_index: number; t: number; phase: number; cpu: number | null }[]
  const out = new Map<number, { t: number; cpu: number | null }[]>()
  for (const r of rows) {
    if (warmup[r.phase] === true) continue
    const list = out.get(r.target_index) ?? []
    list.push({ t: r.t, cpu: r.cpu })
    out.set(r.target_index, list)
  }
  return out
}

/** The sources that read each target's CPU. */
function cpuSources(db: Db, runId: number): Map<string, Set<string>> {
  const rows = db
    .prepare(
      'SELECT DISTINCT target, source FROM resource_samples WHERE run_id = ? AND cpu_percent IS NOT NULL',
    )
    .all(runId) as { target: string; source: string }[]
  const out = new Map<string, Set<string>>()
  for (const r of rows) out.set(r.target, (out.get(r.target) ?? new Set()).add(r.source))
  return out
}

/** Per target of the config, in its order, what limited it while it was measured. */
export function runLimits(
  db: Db,
  runId: number,
  config: RunConfig,
  results: readonly TargetRoundSummary[],
): LimitedBy[] {
  const seconds = measuredSeconds(db, runId, config)
  const own = targetSeconds(db, runId)
  const limits = resourceLimits(db, runId)
  const sources = cpuSources(db, runId)
  const hostCores = readEnvironment(db, runId)?.cores ?? null
  return config.targets.map((target, index): LimitedBy => {
    const rounds = results.filter((r) => r.target === target.name)
    const figures = roundsFigures(rounds)
    const lim = limits.find((l) => l.target === target.name)
    const local = [...(sources.get(target.name) ?? [])].some((s) => LOCAL_SOURCES.has(s))
    const cpuLimit =
      lim?.cpuLimit != null && lim.cpuLimit > 0
        ? { cores: lim.cpuLimit, own: true }
        : local && hostCores
          ? { cores: hostCores, own: false }
          : null
    const mine = own.get(target.name)
    const perSecond = (seconds.get(index) ?? []).map(({ t, cpu }): LimitSecond => {
      const s = mine?.get(t)
      return {
        cpu: s?.cpuPercent ?? null,
        memory: s?.memoryBytes ?? null,
        dbTotal: s?.dbConnections ?? null,
        dbActive: s?.dbActive ?? null,
        generatorCpu: cpu,
      }
    })
    const schedules = rounds.flatMap((r) => (r.schedule ? [r.schedule] : []))
    const sum = (f: (s: (typeof schedules)[number]) => number) => schedules.reduce((a, s) => a + f(s), 0)
    const inputs: LimitInputs = {
      target: target.name,
      seconds: perSecond,
      cpuLimit,
      memoryLimit: lim?.memoryLimit ?? null,
      connectionLimit: lim?.connectionLimit ?? null,
      requests: figures.requests,
      failed: figures.failed,
      errors: figures.errors,
      schedule: schedules.length
        ? {
            scheduled: sum((s) => s.scheduled),
            sent: sum((s) => s.sent),
            unsent: sum((s) => s.unsent),
            late: sum((s) => s.late),
            latenessP50: Math.max(...schedules.map((s) => s.lateness.p50)),
          }
        : null,
    }
    return limitedBy(inputs)
  })
}
