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
