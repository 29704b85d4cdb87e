/*
 * What does sampling Docker cost the load generator? Runs two idle containers and measures this
 * process's CPU time (process.cpuUsage: all threads) for the same wall time without and with a
 * DockerMonitor on both at 1 Hz. Idle containers, so that they do not compete with us for CPU.
 *
 *   node bench/docker-overhead.ts [seconds=20]
 */
import { readdirSync, readFileSync } from 'node:fs'
import Docker from 'dockerode'
import { DockerMonitor } from '../engine/monitor/docker.ts'
import { CLK_TCK, readStat } from '../engine/monitor/procfs.ts'

const seconds = Number(process.argv[2] ?? 20)
const docker = new Docker()
const project = `cannonade-monitor-bench-${process.pid}`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

// The engine's own side of the bill (it reads cgroups for every stream), when it runs here.
const dockerd = readdirSync('/proc')
  .filter((p) => /^\d+$/.test(p))
  .find((p) => {
    try {
      return readFileSync(`/proc/${p}/comm`, 'utf8').trim() === 'dockerd'
    } catch {
      return false
    }
  })
const dockerdTicks = () => (dockerd ? (readStat(Number(dockerd))?.ticks ?? NaN) : NaN)

/** CPU % of one core used over `ms` by this process and by dockerd. */
async function cpuPercentOver(ms: number): Promise<{ self: number; dockerd: number }> {
  const before = process.cpuUsage()
  const ticks = dockerdTicks()
  const t0 = performance.now()
  await sleep(ms)
  const used = process.cpuUsage(before)
  const elapsedMs = performance.now() - t0
  return {
    self: ((used.user + used.system) / 1000 / elapsedMs) * 100,
    dockerd: ((dockerdTicks() - ticks) / CLK_TCK / (elapsedMs / 1000)) * 100,
  }
}

const containers = await Promise.all(
  ['a', 'b'].map(async (service) => {
    const c = await docker.createContainer({
      Image: 'debian:bookworm-slim',
      name: `${project}-${service}-1`,
      Cmd: ['sleep', '3600'],
      Labels: { 'com.docker.compose.project': project, 'com.docker.compose.service': service },
    })
    await c.start()
    return c
  }),
)
try {
  await sleep(1000)
  const baseline = await cpuPercentOver(seconds * 1000)
  let samples = 0
  const monitor = new DockerMonitor({ kind: 'docker', project }, 'bench', 1000)
  await monitor.start(
    () => samples++,
    (e) => console.error(e.message),
  )
  await sleep(2000) // streams open, first frames parsed
  samples = 0
  const sampling = await cpuPercentOver(seconds * 1000)
  await monitor.stop()
  console.log(
    JSON.stringify({
      node: process.version,
      seconds,
      containers: containers.length,
      samples,
      baselineCpuPercent: +baseline.self.toFixed(3),
      samplingCpuPercent: +sampling.self.toFixed(3),
      overheadCpuPercentOfOneCore: +(sampling.self - baseline.self).toFixed(3),
      dockerdBaselineCpuPercent: +baseline.dockerd.toFixed(2),
      dockerdSamplingCpuPercent: +sampling.dockerd.toFixed(2),
    }),
  )
} finally {
  await Promise.all(containers.map((c) => c.remove({ force: true })))
}
