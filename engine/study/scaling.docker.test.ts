// The thesis' scaling template (resources/templates/thesis-scaling-node.yaml) for real, shortened:
// a Docker stack swept over 1 and 2 app instances behind its balancer, the load from 2 local load
// agents, then the agent count swept over 1 and 2. Each run is one exact run of its agents, and the
// study's scaling figures (throughput against the instances' CPU) come from every instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseRunConfig } from '../config/load.ts'
import { freePort } from '../stacks/postgres.ts'
import { Stacks, stackStateDir } from '../stacks/stacks.ts'
import { openDb } from '../db/db.ts'
import { dockerGate } from '../testing/docker.ts'
import { tempDbPath } from '../testing/run-config.ts'
import { studyResults } from './results.ts'
import { runStudy } from './run-study.ts'
import { stackControl, type StackControl } from '../stacks/policy.ts'
import { listTemplates } from './templates.ts'

const gate = dockerGate('the thesis scaling template')

describe.skipIf(gate.skip)('thesis scaling template', () => {
  const dbPath = tempDbPath()
  const db = openDb(dbPath)
  const stacks = new Stacks({ stateDir: stackStateDir(dbPath) })
  let port = 0
  const restarts: number[] = []
  // The engine's own stack control, counting the restarts it makes.
  const control = stackControl(stacks)
  const counted: StackControl = {
    ...control,
    apply: async (s) => {
      restarts.push(s.replicas)
      await control.apply(s)
    },
  }

  beforeAll(async () => {
    if (gate.reason) throw new Error(`CANNONADE_REQUIRE_DOCKER=1 but Docker is unavailable: ${gate.reason}`)
    port = await freePort()
  })
  afterAll(async () => {
    if (!gate.reason) await stacks.down('node-http', { volumes: true })
  }, 120_000)

  /** The template with this test's port, seconds instead of minutes, one round. */
  function shortened(sweep: { path: string; values: number[] }) {
    const t = listTemplates().find((x) => x.id === 'thesis-scaling-node')!.config
    const target = t.targets[0]!
    return parseRunConfig({
      ...t,
      targets: [{ ...target, url: `http://127.0.0.1:${port}${new URL(target.url).pathname}?limit=20` }],
      load: {
        ...t.load,
        connections: 8,
        duration: 4,
        profile: { kind: 'ramp', from: 2, to: 8, stepSize: 2, stepSeconds: 1 },
      },
      rounds: 1,
      cooldownSeconds: 0,
      sweep,
    })
  }

  it('sweeps the app instances 1 → 2 with 2 load agents, then the agents 1 → 2', async () => {
    const replicas = shortened({ path: 'targets.0.stack.replicas', values: [1, 2] })
    const byInstances = await runStudy(db, dbPath, replicas, { stacks: counted })
    expect(restarts).toEqual([1, 2])
    for (const { summary } of byInstances.runs) {
      expect(summary.status).toBe('done')
      expect(summary.distribution?.agents).toBe(2)
      const [a, b] = summary.distribution!.perAgent
      expect(a!.requests + b!.requests).toBe(summary.results[0]!.requests)
    }
    const study = studyResults(db, byInstances.studyId)
    const points = [...study.targets[0]!.points].sort((a, b) => a.value - b.value)
    // One CPU series per app instance: the balancer and the database are not the app's.
    expect(points.map((p) => p.scaling?.instances)).toEqual([1, 2])
    for (const p of points) {
      const s = p.scaling!
      expect(s.capacityPerInstance).toBe(100) // targets/stacks.json: one CPU per app instance
      expect(s.seconds.length).toBeGreaterThanOrEqual(2)
      expect(s.peakCpu).toBeGreaterThan(5)
      expect(s.peakThroughput).toBeGreaterThan(0)
      expect(s.utilization).toBeCloseTo(s.peakCpu / (s.instances * 100), 10)
      // The CPU is every instance's: a second's sum is at least its busiest instance's share.
      expect(Math.max(...s.seconds.map((x) => x.cpu))).toBe(s.peakCpu)
    }
    const table = points.map((p) => ({
      instances: p.scaling!.instances,
      'req/s (mean)': Math.round(p.throughput),
      'req/s (peak second)': p.scaling!.peakThroughput,
      'CPU % (peak, all instances)': p.scaling!.peakCpu,
      'CPU % available': p.scaling!.instances * p.scaling!.capacityPerInstance!,
      utilized: `${Math.round(p.scaling!.utilization! * 100)} %`,
    }))
    console.table(table)

    for (const { summary } of byInstances.runs) expect(summary.results[0]!.throughput).toBeGreaterThan(0)

    // Generator instances: the stack on 2 instances (the study above put it back as it found it,
    // down), 1 then 2 load agents; a sweep of the agents restarts nothing.
    await stacks.up('node-http', { port, replicas: 2 })
    const agents = shortened({ path: 'agents.count', values: [1, 2] })
    const byAgents = await runStudy(
      db,
      dbPath,
      parseRunConfig({
        ...agents,
        targets: [{ ...agents.targets[0]!, stack: { name: 'node-http', replicas: 2 } }],
      }),
      { stacks: counted },
    )
    expect(restarts).toEqual([1, 2])
    expect(byAgents.runs.map((r) => [r.summary.status, r.summary.distribution?.agents])).toEqual([
      ['done', 1],
      ['done', 2],
    ])
    for (const { summary } of byAgents.runs)
      expect(summary.distribution!.perAgent.reduce((a, x) => a + x.requests, 0)).toBe(
        summary.results[0]!.requests,
      )
    for (const { summary } of byAgents.runs) expect(summary.results[0]!.throughput).toBeGreaterThan(0)
    console.table(
      byAgents.runs.map((r) => ({
        agents: r.point[0],
        'req/s': Math.round(r.summary.results[0]!.throughput),
        'p99 ms': r.summary.results[0]!.latency.p99 / 1000,
      })),
    )
  }, 180_000)
})
