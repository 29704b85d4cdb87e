// CPU time of the load thread, for the generator's own CPU % each second (saturation warning).
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

/** The load thread's CPU % (to 0.1) since the last read, or since `start`; null when no time passed. */
export function cpuPercentMeter(read: CpuReader = cpuReader()): {
  start(wall: number): void
  read(): number | null
} {
  let lastCpu = 0
  let lastWall = 0
  return {
    start(wall) {
      lastWall = wall
      lastCpu = read()
    },
    read() {
      const wall = performance.now()
      const cpu = read()
      const percent = wall > lastWall ? ((cpu - lastCpu) / 1000 / (wall - lastWall)) * 100 : null
      lastCpu = cpu
      lastWall = wall
      return percent === null ? null : Math.round(percent * 10) / 10
    },
  }
}
