// The writer thread's (writer.ts) parts that are not its SQLite work: in agent mode, a second as
// encoded statistics the coordinator sums exactly; with CANNONADE_DEBUG_CPU, its CPU per request.
import { encodeStats } from '../metrics/encoded.ts'
import type { StatsAccumulator } from '../metrics/accumulate.ts'
import type { EncodedSecond, ToWriter } from './protocol.ts'

/** Agent mode: one second as the coordinator sums it (metrics/encoded.ts). */
export function encodedSecond(
  segment: number,
  tick: Extract<ToWriter, { type: 'tick' }>,
  acc: StatsAccumulator,
): EncodedSecond {
  return {
    segment,
    t: tick.t,
    phase: tick.phase,
    connections: tick.connections,
    generatorCpu: tick.generatorCpu,
    stats: encodeStats(acc),
  }
}

/** CANNONADE_DEBUG_CPU: the writer thread's CPU time, in all and per request, on stderr. */
export function debugCpu(rows: number): void {
  const u = (process as NodeJS.Process & { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.()
  if (u)
    process.stderr.write(
      `[writer] rows ${rows} cpu ${((u.user + u.system) / 1e3).toFixed(0)} ms (${((u.user + u.system) / Math.max(1, rows)).toFixed(2)} us/row)\n`,
    )
}
