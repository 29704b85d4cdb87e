// A stack scaled to N instances behind its load balancer, with a real Docker
// engine: N app containers answer, the balancer spreads requests over them (each answer names its
// replica in x-upstream), a run records CPU and memory per instance, and `up` with another count
// rescales the same project (back to one: no balancer, the app publishes the port itself).
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { dockerGate, nodeHttpStackSuite, runningContainers } from '../testing/docker.ts'
import { runConfig } from '../testing/run-config.ts'

const gate = dockerGate('Docker replica tests')

/** Container address (bridge network) → container name, for the app replicas of a project. */
function replicaAddresses(project: string): Map<string, string> {
  const ids = runningContainers(project, 'app')
  const r = spawnSync(
    'docker',
    ['inspect', '--format', '{{.Name}} {{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', ...ids],
    { encoding: 'utf8' },
  )
  return new Map(
    r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [name = '', ip = ''] = l.split(' ')
        return [ip, name.replace(/^\//, '')]
      }),
  )
}

describe.skipIf(gate.skip)('stack replicas behind a load balancer', () => {
  const suite = nodeHttpStackSuite(gate)
  const { dbPath, stacks } = suite

  it('runs 2 replicas behind the balancer, which spreads requests over both', async () => {
    const st = await stacks.up('node-http', { port: suite.port, replicas: 2 })
    expect(st).toMatchObject({ state: 'healthy', replicas: 2, url: suite.url })
    expect(st.containers.map((c) => c.service)).toEqual(['app', 'app', 'db', 'lb'])
    const project = stacks.project('node-http')
    const replicas = replicaAddresses(project)
    expect(replicas.size).toBe(2)
    const served = new Map<string, number>()
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${suite.url}/ads/${i + 1}`)
      expect(res.status).toBe(200)
      const upstream = (res.headers.get('x-upstream') ?? '').replace(/:8080$/, '')
      const name = replicas.get(upstream)
      expect(name, `x-upstream ${upstream} is one of ${[...replicas.keys()].join(', ')}`).toBeDefined()
      served.set(name!, (served.get(name!) ?? 0) + 1)
    }
    // Round robin over two: every replica serves, and none more than a few over half.
    expect([...served.keys()].sort()).toEqual([...replicas.values()].sort())
    for (const n of served.values()) expect(n).toBeGreaterThanOrEqual(15)
  }, 900_000)

  it('a run records CPU and memory per replica', async () => {
    const { summary, db } = await runConfig(
      {
        version: 1,
        name: 'replicas',
        targets: [
          {
            name: 'node-http',
            url: `${suite.url}/compute?iterations=20000`,
            monitor: { kind: 'docker', stack: 'node-http' },
          },
        ],
        load: { connections: 4, duration: 4 },
        cooldownSeconds: 0,
      },
      undefined,
      {},
      dbPath,
    )
    expect(summary.status).toBe('done')
    const rows = db
      .prepare(
        "SELECT instance, avg(cpu_percent) AS cpu, min(memory_bytes) AS memory, count(*) AS n FROM resource_samples WHERE run_id = ? AND source = 'docker' AND t >= 1 AND t < 4 GROUP BY instance",
      )
      .all(summary.runId) as { instance: string; cpu: number; memory: number; n: number }[]
    const replicas = [...replicaAddresses(stacks.project('node-http')).values()].sort()
    // One series per app container (not the balancer, not the database), each busy with its share.
    expect(rows.map((r) => r.instance).sort()).toEqual(replicas)
    for (const r of rows) {
      expect(r.n).toBeGreaterThanOrEqual(2)
      expect(r.cpu, `${r.instance} CPU`).toBeGreaterThan(5)
      expect(r.memory).toBeGreaterThan(1_000_000)
    }
  }, 120_000)

  it('up with another count rescales: 3 behind the balancer, then 1 without it', async () => {
    const three = await stacks.up('node-http', { port: suite.port, replicas: 3 })
    expect(three.replicas).toBe(3)
    const project = stacks.project('node-http')
    const addresses = replicaAddresses(project)
    const seen = new Set<string>()
    for (let i = 0; i < 30; i++) {
      const res = await fetch(`${suite.url}/health`)
      seen.add((res.headers.get('x-upstream') ?? '').replace(/:8080$/, ''))
    }
    expect([...seen].sort()).toEqual([...addresses.keys()].sort())
    const one = await stacks.up('node-http', { port: suite.port })
    expect(one).toMatchObject({ state: 'healthy', replicas: 1, url: suite.url })
    expect(one.containers.map((c) => c.service)).toEqual(['app', 'db'])
    const res = await fetch(`${suite.url}/health`)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-upstream')).toBeNull()
  }, 900_000)
})
