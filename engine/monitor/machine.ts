// How busy this machine is right now, before a run starts: its load average against its cores, the
// CPU it used over a short sample, and the processes that used most of it. A machine already busier
// than its cores is said plainly before a run (the CLI, the wizard) and kept in the run's record
// (its environment), so figures measured on it are read with that in mind. Linux /proc; elsewhere
// only the cores and the load average (os.loadavg) are known.
import { availableParallelism, loadavg } from 'node:os'
import type { MachineLoad } from '../api/types.ts'
import { machineWords } from '../metrics/noise.ts'
import { listProcesses, readHostCpu, readStat } from './procfs.ts'

function ticksByPid(): Map<number, { name: string; ticks: number }> {
  const out = new Map<number, { name: string; ticks: number }>()
  for (const p of listProcesses()) {
    const stat = readStat(p.pid)
    if (stat) out.set(p.pid, { name: p.name, ticks: stat.ticks })
  }
  return out
}

/** The machine over `sampleMs` (the top processes by CPU in that time, 100 % = one core). */
export async function machineLoad(sampleMs = 300): Promise<MachineLoad> {
  const cores = availableParallelism()
  const load = process.platform === 'win32' ? null : (loadavg()[0] ?? null)
  const hostBefore = readHostCpu()
  const before = hostBefore ? ticksByPid() : new Map<number, { name: string; ticks: number }>()
  await new Promise((r) => setTimeout(r, sampleMs))
  const hostAfter = readHostCpu()
  let busyPercent: number | null = null
  const byName = new Map<string, number>()
  if (hostBefore && hostAfter && hostAfter.total > hostBefore.total) {
    const perCore = (hostAfter.total - hostBefore.total) / cores
    busyPercent = ((hostAfter.busy - hostBefore.busy) / perCore) * 100
    for (const [pid, now] of ticksByPid()) {
      const then = before.get(pid)
      if (!then || then.name !== now.name) continue
      const cpu = ((now.ticks - then.ticks) / perCore) * 100
      if (cpu > 0) byName.set(now.name, (byName.get(now.name) ?? 0) + cpu)
    }
  }
  const top = [...byName]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([name, cpuPercent]) => ({ name, cpuPercent }))
  const busy = (load !== null && load > cores) || (busyPercent !== null && busyPercent >= 90 * cores)
  const m = { cores, loadAverage: load, busyPercent, busy, top, sampledAt: new Date().toISOString() }
  return { ...m, words: machineWords(m) }
}
