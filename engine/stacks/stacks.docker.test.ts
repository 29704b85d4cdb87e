// Target stacks with a real Docker engine: a stack up to healthy on a project of its own data
// folder, the limits its containers really run with, a CPU-bound run whose container CPU and
// database connections are stored each second, a pool-size sweep whose connections the postgres
// monitor counts, Stop keeping the database unless asked, and the bad inputs: unknown stack or
// setting, a taken port (naming who holds it), health never reached (nothing left running), no Docker.
import { spawnSync } from 'node:child_process'
import http from 'node:http'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors.ts'
import { parseRunConfig } from '../config/load.ts'
import { openDb } from '../db/db.ts'
import { runStudy } from '../study/run-study.ts'
import { stackControl } from './policy.ts'
import { dockerGate, nodeHttpStackSuite, projectVolumes, runningContainers } from '../testing/docker.ts'
import { runConfig, tempDbPath } from '../testing/run-config.ts'
import { detectCompose } from './compose.ts'
import { freePort } from './postgres.ts'
import { Stacks, stackStateDir, type StackSnapshot } from './stacks.ts'

const gate = dockerGate('Docker stack tests')

type Row = { t: number; instance: string; cpu_percent: number | null; connections: number | null }

describe.skipIf(gate.skip)('stacks with Docker', () => {
  const logs: string[] = []
  // The runs below use this database, so `stack:` monitors find this data folder's stacks.
  const suite = nodeHttpStackSuite(gate, (_s, l) => logs.push(l))
  const { dbPath, stacks } = suite

  it('brings node-http up on a project of this data folder and shows the limits its containers run with', async () => {
    const started = Date.now()
    // Half a core, where the manifest says one: status must show what Docker applies.
    const st = await stacks.up('node-http', { port: suite.port, env: { CANNONADE_APP_CPUS: '0.5' } })
    console.log(`stacks up node-http: healthy in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    expect(st.state).toBe('healthy')
    expect(st.url).toBe(suite.url)
    expect(st.project).toMatch(/^cannonade-node-http-[0-9a-f]{6}$/)
    expect(st.project).toBe(stacks.project('node-http'))
    expect(new Stacks({ stateDir: stackStateDir(tempDbPath()) }).project('node-http')).not.toBe(st.project)
    expect(stacks.list().find((s) => s.name === 'node-http')?.limits).toEqual({ cpus: 1, memory: '512m' })
    expect(st.limits).toEqual({ cpus: 0.5, memory: '512m' })
    const status = (await stacks.status()).find((s) => s.name === 'node-http')
    expect(status).toMatchObject({
      state: 'healthy',
      replicas: 1,
      limits: { cpus: 0.5, memory: '512m' },
      url: suite.url,
    })
    expect(status?.containers.map((c) => [c.service, c.cpus, c.memory])).toEqual([
      ['app', 0.5, '512m'],
      ['db', 1, '512m'],
    ])
    expect(logs.some((l) => /node-http is healthy/.test(l))).toBe(true)
    const res = await fetch(`${suite.url}/ads?limit=2`, { headers: { 'x-correlation-id': 'corr-1' } })
    expect(res.headers.get('x-correlation-id')).toBe('corr-1')
    expect(res.headers.get('server-timing')).toMatch(/app;dur=[\d.]+, db;dur=[\d.]+/)
  }, 900_000)

  it('a CPU-bound run stores the container CPU and the database connections each second', async () => {
    const { summary, db } = await runConfig(
      {
        version: 1,
        name: 'compute with docker and postgres monitoring',
        targets: [
          {
            name: 'node-http',
            url: `${suite.url}/compute?iterations=20000`,
            monitor: [
              { kind: 'docker', stack: 'node-http' },
              { kind: 'postgres', stack: 'node-http' },
            ],
          },
        ],
        load: { connections: 4, duration: 7, profile: { kind: 'burst', burstSeconds: 3, idleSeconds: 4 } },
        cooldownSeconds: 0,
      },
      undefined,
      {},
      dbPath,
    )
    expect(summary.status).toBe('done')
    expect(summary.results[0]!.ok).toBeGreaterThan(10)
    const rows = db
      .prepare(
        "SELECT t, instance, cpu_percent, memory_bytes, memory_limit, cpu_limit FROM resource_samples WHERE run_id = ? AND source = 'docker' ORDER BY t",
      )
      .all(summary.runId) as (Row & {
      memory_bytes: number | null
      memory_limit: number
      cpu_limit: number
    })[]
    const seconds = new Set(rows.filter((r) => r.t >= 0 && r.t < 7).map((r) => Math.floor(r.t)))
    expect(seconds.size).toBeGreaterThanOrEqual(6)
    expect(new Set(rows.map((r) => r.instance)).size).toBe(1) // the app service only, not its database
    const busy = rows.filter((r) => r.t >= 1 && r.t < 3).map((r) => r.cpu_percent ?? 0)
    const idle = rows.filter((r) => r.t >= 5 && r.t < 7).map((r) => r.cpu_percent ?? 0)
    // PBKDF2 keeps the container's CPU busy under load (how busy depends on what else the host
    // runs: judged against the same container idle, not a fixed figure) and it falls back after.
    expect(Math.max(...busy)).toBeGreaterThan(3 * Math.max(...idle) + 5)
    expect(Math.max(...idle)).toBeLessThan(15)
    // Half a core: the sampled CPU never goes far past the limit the container runs with.
    expect(Math.max(...busy)).toBeLessThan(75)
    expect(rows.every((r) => (r.memory_bytes ?? 0) > 1_000_000)).toBe(true)
    expect(rows[0]!.memory_limit).toBe(512 * 1024 * 1024)
    expect(rows[0]!.cpu_limit).toBe(0.5)
    // The database: one row per state and second; /compute never touches it, so nothing is active
    // but Docker's 1 s health check keeps one pooled connection.
    const pg = db
      .prepare(
        "SELECT t, instance, connections FROM resource_samples WHERE run_id = ? AND source = 'postgres' ORDER BY t",
      )
      .all(summary.runId) as Row[]
    expect(new Set(pg.map((r) => r.instance))).toEqual(new Set(['active', 'idle', 'idle in transaction']))
    expect(
      new Set(pg.filter((r) => r.t >= 0 && r.t < 7).map((r) => Math.floor(r.t))).size,
    ).toBeGreaterThanOrEqual(6)
    expect(
      Math.max(...pg.filter((r) => r.instance === 'idle').map((r) => r.connections ?? 0)),
    ).toBeGreaterThanOrEqual(1)
    // The environment records the container's image and limits for the report.
    const env = JSON.parse(
      db.prepare('SELECT details FROM environment WHERE run_id = ?').pluck().get(summary.runId) as string,
    )
    expect(env.targets[0].containers[0]).toMatchObject({
      image: expect.stringMatching(/^cannonade\/node:24@sha256:/),
      cpus: 0.5,
      memoryBytes: 512 * 1024 * 1024,
    })
  }, 120_000)

  it('a POOL_SIZE sweep restarts the stack with each value; the postgres monitor sees the pool', async () => {
    const seen: string[] = []
    const restored: StackSnapshot[] = []
    const control = stackControl(stacks)
    const poolSize = () => {
      const [id] = runningContainers(stacks.project('node-http'), 'app')
      const inspect = spawnSync(
        'docker',
        ['inspect', '--format', '{{range .Config.Env}}{{println .}}{{end}}', id!],
        {
          encoding: 'utf8',
        },
      )
      return /POOL_SIZE=(\d+)/.exec(inspect.stdout)?.[1] ?? 'none'
    }
    const db = openDb(dbPath)
    const { runs } = await runStudy(
      db,
      dbPath,
      parseRunConfig({
        version: 1,
        name: 'pool',
        targets: [
          {
            name: 'node-http',
            url: `${suite.url}/ads?limit=50`,
            stack: { name: 'node-http', env: { POOL_SIZE: 2 } },
            monitor: { kind: 'postgres', stack: 'node-http' },
          },
        ],
        load: { connections: 4, duration: 3 },
        cooldownSeconds: 0,
        sweep: { path: 'targets.0.stack.env.POOL_SIZE', values: [0, 2, 6], warmupSeconds: 1 },
      }),
      {
        stacks: {
          ...control,
          apply: async (s) => {
            await control.apply(s)
            seen.push(poolSize())
          },
          restore: async (snap) => {
            restored.push(snap)
            await control.restore(snap)
          },
        },
      },
    )
    expect(seen).toEqual(['0', '2', '6'])
    // The stack ran with the default pool and half a core before the study, and does again after it,
    // on the same port.
    expect(restored.map((r) => [r.running, r.env.POOL_SIZE, r.env.CANNONADE_APP_CPUS, r.port])).toEqual([
      [true, '10', '0.5', suite.port],
    ])
    expect(poolSize()).toBe('10')
    const after = (await stacks.status()).find((s) => s.name === 'node-http')
    expect([after?.state, after?.limits.cpus, after?.url]).toEqual(['healthy', 0.5, suite.url])
    // Each run opened with the stated warm-up after its restart, left out of its figures.
    for (const r of runs)
      expect(r.summary.results[0]!.phases[0]).toMatchObject({ phase: 'warmup', warmup: true })
    expect(runs.map((r) => r.summary.status)).toEqual(['done', 'done', 'done'])
    for (const r of runs) expect(r.summary.results[0]!.ok).toBeGreaterThan(10)
    // Connections open at each tick (every state: a tick's rows share their t), as the monitor counted them.
    const opened = (runId: number) => {
      const rows = db
        .prepare(
          "SELECT t, sum(connections) AS n FROM resource_samples WHERE run_id = ? AND source = 'postgres' AND t >= 0.5 AND t < 3 GROUP BY t",
        )
        .all(runId) as { n: number }[]
      return Math.max(...rows.map((r) => r.n))
    }
    // 4 connections of load: a pool of 2 opens exactly 2; a pool of 6 opens one per request in
    // flight (4, and one more while a health check overlaps), never more than 6.
    expect(opened(runs[1]!.summary.runId)).toBe(2)
    expect(opened(runs[2]!.summary.runId)).toBeGreaterThanOrEqual(4)
    expect(opened(runs[2]!.summary.runId)).toBeLessThanOrEqual(6)
  }, 300_000)

  it('Stop keeps the database unless asked: an ad survives down and up, --volumes deletes it', async () => {
    const project = stacks.project('node-http')
    const created = await fetch(`${suite.url}/ads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'kept across a restart', body: '', price: 1 }),
    })
    const ad = (await created.json()) as { id: number }
    await stacks.down('node-http')
    expect(runningContainers(project)).toEqual([])
    expect(projectVolumes(project)).toHaveLength(1)
    await stacks.up('node-http', { port: suite.port })
    expect(((await (await fetch(`${suite.url}/ads/${ad.id}`)).json()) as { title: string }).title).toBe(
      'kept across a restart',
    )
    await stacks.down('node-http', { volumes: true })
    expect(projectVolumes(project)).toEqual([])
  }, 300_000)

  it('refuses an unknown stack, a setting the stack does not read, and a taken port, naming its holder', async () => {
    await expect(stacks.up('nope')).rejects.toMatchObject({
      code: 'not-found',
      message: expect.stringMatching(/known stacks: node-http/),
    })
    await expect(stacks.up('node-http', { port: suite.port, env: { POOL_SIZ: 3 } })).rejects.toMatchObject({
      code: 'bad-input',
      message: expect.stringMatching(/does not read POOL_SIZ; it reads .*POOL_SIZE/),
    })
    await expect(
      stacks.up('node-http', { port: suite.port, native: true, replicas: 2 }),
    ).rejects.toMatchObject({
      code: 'bad-input',
      message: expect.stringMatching(/replicas need Docker/),
    })
    const taken = await freePort()
    const blocker = http.createServer().listen(taken, '127.0.0.1')
    await new Promise((r) => blocker.once('listening', r))
    try {
      await expect(stacks.up('node-cluster', { port: taken })).rejects.toMatchObject({
        code: 'conflict',
        message: expect.stringMatching(new RegExp(`port ${taken} is already in use by another program`)),
      })
      expect(runningContainers(stacks.project('node-cluster'))).toEqual([])
    } finally {
      blocker.close()
    }
    // A stack of another data folder holds the port: the message names its container and project.
    const other = new Stacks({ stateDir: stackStateDir(tempDbPath()) })
    await stacks.up('node-http', { port: suite.port })
    try {
      await expect(other.up('node-http', { port: suite.port })).rejects.toMatchObject({
        code: 'conflict',
        message: expect.stringContaining(`of compose project ${stacks.project('node-http')}`),
      })
      expect(runningContainers(other.project('node-http'))).toEqual([])
    } finally {
      await other.down('node-http', { volumes: true })
    }
  }, 300_000)

  it('health never reached: a time-out with the last log lines, and nothing left running', async () => {
    const impatient = new Stacks({ stateDir: stackStateDir(tempDbPath()), healthTimeoutMs: 1 })
    try {
      await expect(impatient.up('node-cluster', { port: await freePort() })).rejects.toSatisfy(
        (e: unknown) => e instanceof ApiError && /never answered .* Last log lines/s.test(e.message),
      )
      expect(runningContainers(impatient.project('node-cluster'))).toEqual([])
    } finally {
      await impatient.down('node-cluster', { volumes: true })
    }
  }, 900_000)
})

describe('stacks without Docker', () => {
  it('says Docker is not installed and points to --native', async () => {
    const path = process.env.PATH
    process.env.PATH = '/nonexistent'
    try {
      await expect(detectCompose({ fresh: true })).rejects.toThrow(/Docker is not installed.*--native/)
    } finally {
      process.env.PATH = path
    }
  })
})
