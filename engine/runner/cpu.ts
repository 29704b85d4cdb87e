// CPU time of the load thread, for the generator's own CPU % each second (saturation warning), and
// the time it was ready to run but waited for a CPU that other threads held. A generator that waits
// is as limited as one that is busy: on a machine whose other work takes the generator's CPU, the
// load thread read 10–30 % busy while it waited 4–6× as long as it ran, and its figures measured the
// machine, not the target (docs/http-conformance.md, "The Tomcat case").
import { readFileSync } from 'node:fs'

export type CpuReader = () => number
export function cpuReader(): CpuReader {
  // The load thread's own CPU when Node can tell it (threadCpuUsage, Node ≥ 23.9), else the process'.
  const proc = process as NodeJS.Process & { threadCpuUsage?: (this: void) => NodeJS.CpuUsage }
  if (typeof proc.threadCpuUsage === 'function') {
    return () => {
      const u = proc.threadCpuUsage()
      return u.user + u.system
    }
  }
  return () => {
    const u = process.cpuUsage()
    return u.user + u.system
  }
}

/** µs the calling thread has waited on a run queue (ready, not running), or null where unknown. */
export type WaitReader = () => number | null

/**
 * Linux's schedstat of the calling thread (`/proc/thread-self/schedstat`: ns on a CPU, ns waiting
 * on a run queue, time slices); null everywhere else, or where the kernel keeps no schedstats.
 */
export function waitReader(path = '/proc/thread-self/schedstat'): WaitReader {
  const read = (): number | null => {
    try {
      const ns = Number(readFileSync(path, 'latin1').split(' ')[1])
      return Number.isFinite(ns) ? ns / 1000 : null
    } catch {
      return null
    }
  }
  return read() === null ? () => null : read
}

const percent = (us: number, ms: number) => Math.round((us / 1000 / ms) * 100 * 10) / 10

/**
 * Since the last read (or `start`), to 0.1 %: the load thread's CPU, and the share of the time it
 * waited for a CPU (null where the system does not say); both null when no time passed.
 */
export function cpuPercentMeter(
  read: CpuReader = cpuReader(),
  readWait: WaitReader = waitReader(),
): {
  start(wall: number): void
  read(): { cpu: number | null; wait: number | null }
} {
  let lastCpu = 0
  let lastWait: number | null = null
  let lastWall = 0
  return {
    start(wall) {
      lastWall = wall
      lastCpu = read()
      lastWait = readWait()
    },
    read() {
      const wall = performance.now()
      const cpu = read()
      const wait = readWait()
      const ms = wall - lastWall
      const out = {
        cpu: ms > 0 ? percent(cpu - lastCpu, ms) : null,
        wait: ms > 0 && wait !== null && lastWait !== null ? percent(wait - lastWait, ms) : null,
      }
      lastCpu = cpu
      lastWait = wait
      lastWall = wall
      return out
    },
  }
}
