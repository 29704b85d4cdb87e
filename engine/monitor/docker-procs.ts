import type Docker from 'dockerode'
import { CLK_TCK, readRssBytes, readStat } from './procfs.ts'

/** One process of a container at one instant, keyed `pid:start time` (a reused pid is another process). */
type Snapshot = { at: number; procs: Map<string, { pid: number; ticks: number; rssBytes: number }> }

export type ProcessFigures = {
  pid: number
  cpuPercent: number | null
  memoryBytes: number | null
  state: string
}

/** The host pids `docker top` lists for a container (its PID column). */
export async function containerPids(container: Docker.Container): Promise<number[]> {
  const top = (await container.top()) as { Titles?: string[]; Processes?: string[][] }
  const col = (top.Titles ?? []).findIndex((t) => t.trim().toUpperCase() === 'PID')
  if (col < 0) return []
  return (top.Processes ?? []).map((row) => Number(row[col])).filter((p) => Number.isInteger(p) && p > 0)
}

/**
 * Per-process CPU and memory of a container's processes (a node cluster's workers),
 * read from the host's /proc for the pids `docker top` names: the same arithmetic as the process
 * monitor. Works where the engine shares this machine's pid namespace (Linux, local daemon); a
 * remote or VM-hosted engine's pids are not in our /proc, which `readable` says.
 */
export class ContainerProcesses {
  #pids: number[] = []
  #last: Snapshot | undefined

  /** Sets the pids to follow (after `docker top`); false when none of them is visible here. */
  follow(pids: readonly number[]): boolean {
    this.#pids = [...pids]
    if (this.#last === undefined) this.#last = this.#snapshot()
    return pids.length === 0 || pids.some((p) => readStat(p) !== null)
  }

  #snapshot(): Snapshot {
    const procs: Snapshot['procs'] = new Map()
    for (const pid of this.#pids) {
      const stat = readStat(pid)
      if (!stat || stat.state === 'Z') continue
      procs.set(`${pid}:${stat.startTime}`, { pid, ticks: stat.ticks, rssBytes: readRssBytes(pid) ?? 0 })
    }
    return { at: performance.now(), procs }
  }

  /** Each followed process since the last call; one that exited since gets an 'exited' entry once. */
  sample(): ProcessFigures[] {
    const prev = this.#last
    const cur = this.#snapshot()
    this.#last = cur
    const seconds = prev ? (cur.at - prev.at) / 1000 : 0
    const out: ProcessFigures[] = []
    for (const [key, p] of cur.procs) {
      const before = prev?.procs.get(key)
      // A process first seen now has no interval yet: its CPU is unknown, not 0.
      const cpu =
        before && seconds > 0 ? Math.max(0, ((p.ticks - before.ticks) / CLK_TCK / seconds) * 100) : null
      out.push({ pid: p.pid, cpuPercent: cpu, memoryBytes: p.rssBytes, state: 'running' })
    }
    for (const [key, p] of prev?.procs ?? []) {
      if (!cur.procs.has(key)) out.push({ pid: p.pid, cpuPercent: null, memoryBytes: null, state: 'exited' })
    }
    return out
  }

  /** Pids followed now that no longer run: time to ask `docker top` again. */
  stale(): boolean {
    return this.#pids.some((p) => readStat(p) === null)
  }
}
