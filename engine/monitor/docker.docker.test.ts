import Docker from 'dockerode'
import { afterAll, describe, expect, it } from 'vitest'
import { DockerMonitor } from './docker.ts'
import { testMonitor } from './index.ts'
import { CLK_TCK, readStat } from './procfs.ts'
import { collector, expectBusyThenIdle, meanCpu } from '../testing/monitor.ts'
import { MonitorError } from './types.ts'

/*
 * Against a real engine (no mocks: a mock answers what we expect, not what Docker does). Without
 * one the engine tests are skipped with the reason printed, unless CANNONADE_REQUIRE_DOCKER=1,
 * where they fail instead: CI must not pass by skipping.
 */
const IMAGE = 'debian:bookworm-slim'
const docker = new Docker()
const project = `cannonade-monitor-test-${process.pid}`
const required = process.env.CANNONADE_REQUIRE_DOCKER === '1'

async function whyUnavailable(): Promise<string | null> {
  try {
    await docker.ping()
  } catch (error) {
    return `no Docker engine at ${process.env.DOCKER_HOST ?? '/var/run/docker.sock'} (${(error as Error).message})`
  }
  try {
    await docker.getImage(IMAGE).inspect()
  } catch {
    return `the local image ${IMAGE} is missing (docker pull ${IMAGE})`
  }
  return null
}
const unavailable = await whyUnavailable()
if (unavailable) {
  console.warn(
    `[docker monitor tests] ${required ? 'FAILING (CANNONADE_REQUIRE_DOCKER=1)' : 'skipped'}: ${unavailable}`,
  )
}
const skip = unavailable !== null && !required
function needDocker(): void {
  if (unavailable) throw new Error(`Docker is required (CANNONADE_REQUIRE_DOCKER=1) but ${unavailable}`)
}

const created: Docker.Container[] = []
afterAll(async () => {
  await Promise.all(created.map((c) => c.remove({ force: true }).catch(() => {})))
})

async function run(
  service: string,
  cmd: string,
  hostConfig: Docker.HostConfig = {},
): Promise<Docker.Container> {
  const container = await docker.createContainer({
    Image: IMAGE,
    name: `${project}-${service}-1`,
    Cmd: ['sh', '-c', cmd],
    Labels: { 'com.docker.compose.project': project, 'com.docker.compose.service': service },
    HostConfig: hostConfig,
  })
  created.push(container)
  await container.start()
  return container
}

describe('docker monitor', () => {
  it('reports docker-unavailable with the socket it tried', async () => {
    const monitor = new DockerMonitor(
      { kind: 'docker', container: 'x', socketPath: '/nonexistent/docker.sock' },
      't',
    )
    const error: unknown = await monitor
      .start(
        () => {},
        () => {},
      )
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MonitorError)
    expect(error).toMatchObject({ code: 'docker-unavailable' })
    expect((error as Error).message).toMatch(
      /Docker engine not reachable at \/nonexistent\/docker.sock.*running/,
    )
  })

  it.skipIf(skip)('reports an unknown container or an empty project as not-found', async () => {
    needDocker()
    const byName = new DockerMonitor({ kind: 'docker', container: `${project}-nope` }, 't')
    await expect(
      byName.start(
        () => {},
        () => {},
      ),
    ).rejects.toMatchObject({ code: 'not-found' })
    const byProject = new DockerMonitor({ kind: 'docker', project: `${project}-nope` }, 't')
    await expect(
      byProject.start(
        () => {},
        () => {},
      ),
    ).rejects.toThrow(/no containers with label/)
  })

  it.skipIf(skip)('samples each container of a compose project; a stopped one turns exited', async () => {
    needDocker()
    const burner = await run('burner', 'while :; do :; done', { NanoCpus: 1e9, Memory: 64 * 1024 * 1024 })
    await run('idle', 'sleep 600')
    const tested = await testMonitor({ kind: 'docker', project }, { intervalMs: 500 })
    expect(tested).toMatchObject({ ok: true, instances: 2 })
    expect(tested.message).toMatch(new RegExp(`^2 containers: ${project}-(burner|idle)-1 \\(running`))
    const burnerName = `${project}-burner-1`
    const samples = collector((s) => s.instance === burnerName)
    const idleSamples = collector((s) => s.instance !== burnerName)
    const errors: unknown[] = []
    const monitor = new DockerMonitor({ kind: 'docker', project }, 'stack', 500)
    await monitor.start(
      (s) => {
        samples.onSample(s)
        idleSamples.onSample(s)
      },
      (e) => errors.push(e),
    )
    try {
      await samples.next(3) // the first frames of a stream carry no CPU delta yet
      // Ground truth for the same window: the burner's own utime + stime, seen from the host.
      const pid = (await burner.inspect()).State.Pid
      const before = { ticks: readStat(pid)?.ticks ?? NaN, at: performance.now() }
      const busy = await samples.next(6)
      const seconds = (performance.now() - before.at) / 1000
      const truth = (((readStat(pid)?.ticks ?? NaN) - before.ticks) / CLK_TCK / seconds) * 100
      const idle = await idleSamples.next(9)
      expectBusyThenIdle(busy, idle.slice(3), truth)
      expect(meanCpu(busy)).toBeLessThan(115) // limited to one core
      for (const s of busy) {
        expect(s).toMatchObject({ source: 'docker', target: 'stack', state: 'running', cpuLimit: 1 })
        expect(s.memoryBytes).toBeGreaterThan(0)
        expect(s.memoryLimitBytes).toBe(64 * 1024 * 1024)
      }
      expect(idle[0]).toMatchObject({ instance: `${project}-idle-1`, cpuLimit: null, memoryLimitBytes: null })

      await burner.kill()
      const after = await samples.next(6)
      expect(after.at(-1)).toMatchObject({ state: 'exited', cpuPercent: null, memoryBytes: null })
      // The other container goes on being sampled, once per tick.
      expect((await idleSamples.next(2)).every((s) => s.state === 'running')).toBe(true)
      expect(errors).toEqual([])
    } finally {
      await monitor.stop()
    }
  })

  it.skipIf(skip)('with processes: true, samples each process of a container apart', async () => {
    needDocker()
    // One shell burning a core beside an idle sleep, under the same parent shell.
    const box = await run('procs', 'while :; do :; done & exec sleep 600', { NanoCpus: 1e9 })
    const name = `${project}-procs-1`
    const samples = collector((s) => s.instance.startsWith(`${name}/`))
    const errors: unknown[] = []
    const monitor = new DockerMonitor({ kind: 'docker', container: name, processes: true }, 'procs', 500)
    await monitor.start(samples.onSample, (e) => errors.push(e))
    try {
      const first = await samples.next(2) // two processes a tick
      const pids = first.map((s) => Number(s.instance.split('/')[1])).sort((a, b) => a - b)
      const main = (await box.inspect()).State.Pid // the container's first process: now `sleep`
      const burner = pids.find((p) => p !== main)!
      expect(pids).toContain(main)
      const before = { ticks: readStat(burner)?.ticks ?? NaN, at: performance.now() }
      const busy = await samples.next(2 * 6)
      const seconds = (performance.now() - before.at) / 1000
      const truth = (((readStat(burner)?.ticks ?? NaN) - before.ticks) / CLK_TCK / seconds) * 100
      const of = (pid: number) => busy.filter((s) => s.instance === `${name}/${pid}`)
      const seen = `burner ${meanCpu(of(burner)).toFixed(1)} %, its own ${truth.toFixed(1)} %, sleep ${meanCpu(of(main)).toFixed(1)} %`
      expect(Math.abs(meanCpu(of(burner)) - truth), seen).toBeLessThan(Math.max(15, truth * 0.3))
      expect(meanCpu(of(burner)), seen).toBeGreaterThan(15)
      expect(meanCpu(of(main)), seen).toBeLessThan(5)
      for (const s of busy) {
        expect(s).toMatchObject({ source: 'docker', target: 'procs', state: 'running', cpuLimit: 1 })
        expect(s.memoryBytes).toBeGreaterThan(0)
      }
      expect(errors).toEqual([])
    } finally {
      await monitor.stop()
    }
  })
})
