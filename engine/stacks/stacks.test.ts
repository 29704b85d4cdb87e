// Target stacks with a real Docker engine: a stack up to healthy, a CPU-bound run whose
// container CPU and memory are stored each second (high under load, low after), and the bad
// inputs: unknown stack, port taken, health never reached (nothing left running), no Docker.
import { spawnSync } from 'node:child_process'
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors.ts'
import { runConfig, tempDbPath } from '../testing/run.ts'
import { detectCompose } from './compose.ts'
import { Stacks } from './stacks.ts'
import { parseRunConfig } from '../config/load.ts'
import { openDb } from '../store/db.ts'
import { runStudy } from '../study/sweep.ts'
import { dirname, join } from 'node:path'

function dockerReason(): string | null {
  try {
    detectCompose()
    return null
  } catch (err) {
    return (err as Error).message
  }
}
const reason = dockerReason()
const required = process.env.CANNONADE_REQUIRE_DOCKER === '1'
if (reason && !required) console.warn(`skipping Docker stack tests: ${reason}`)

function running(project: string): number {
  const r = spawnSync('docker', ['ps', '-q', '--filter', `label=com.docker.compose.project=${project}`], {
    encoding: 'utf8',
  })
  return r.stdout.split('\n').filter(Boolean).length
}

describe.skipIf(reason !== null && !required)('stacks with Docker', () => {
  const logs: string[] = []
  const stacks = new Stacks({
    stateDir: join(dirname(tempDbPath()), 'native'),
    onLog: (_s, l) => logs.push(l),
  })

  beforeAll(() => {
    if (reason) throw new Error(`CANNONADE_REQUIRE_DOCKER=1 but Docker is unavailable: ${reason}`)
  })
  afterAll(async () => {
    await stacks.down('node-http')
  }, 120_000)

  it('brings node-http up to healthy, streams its output, reports containers and limits', async () => {
    const started = Date.now()
    const st = await stacks.up('node-http')
    console.log(`stacks up node-http: healthy in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    expect(st.state).toBe('healthy')
    expect(st.url).toBe('http://127.0.0.1:8082')
    expect(st.limits).toEqual({ cpus: 1, memory: '512m' })
    expect(st.containers.length).toBe(2)
    expect(logs.some((l) => /node-http is healthy/.test(l))).toBe(true)
    const res = await fetch(`${st.url}/ads?limit=2`, { headers: { 'x-correlation-id': 'corr-1' } })
    expect(res.headers.get('x-correlation-id')).toBe('corr-1')
    expect(res.headers.get('server-timing')).toMatch(/app;dur=[\d.]+, db;dur=[\d.]+/)
  }, 900_000)

  it('a CPU-bound run stores container CPU and memory each second: high under load, low after', async () => {
    const { summary, db } = await runConfig({
      version: 1,
      name: 'compute with docker monitoring',
      targets: [
        {
          name: 'node-http',
          url: 'http://127.0.0.1:8082/compute?iterations=20000',
          monitor: { kind: 'docker', project: 'cannonade-node-http', service: 'app' },
        },
      ],
      load: { connections: 4, duration: 7, profile: { kind: 'burst', burstSeconds: 3, idleSeconds: 4 } },
      cooldownSeconds: 0,
    })
    expect(summary.status).toBe('done')
    expect(summary.results[0]!.ok).toBeGreaterThan(10)
    const rows = db
      .prepare(
        "SELECT t, cpu_percent, memory_bytes, memory_limit, cpu_limit FROM resource_samples WHERE run_id = ? AND source = 'docker' ORDER BY t",
      )
      .all(summary.runId) as {
      t: number
      cpu_percent: number | null
      memory_bytes: number | null
      memory_limit: number | null
      cpu_limit: number | null
    }[]
    const seconds = new Set(rows.filter((r) => r.t >= 0 && r.t < 7).map((r) => Math.floor(r.t)))
    expect(seconds.size).toBeGreaterThanOrEqual(6)
    const busy = rows.filter((r) => r.t >= 1 && r.t < 3).map((r) => r.cpu_percent ?? 0)
    const idle = rows.filter((r) => r.t >= 5 && r.t < 7).map((r) => r.cpu_percent ?? 0)
    // PBKDF2 keeps the container's CPU busy under load (how busy depends on what else the host
    // runs: judged against the same container idle, not a fixed figure) and it falls back after.
    expect(Math.max(...busy)).toBeGreaterThan(3 * Math.max(...idle) + 5)
    expect(Math.max(...idle)).toBeLessThan(15)
    expect(rows.every((r) => (r.memory_bytes ?? 0) > 1_000_000)).toBe(true)
    expect(rows[0]!.memory_limit).toBe(512 * 1024 * 1024)
    expect(rows[0]!.cpu_limit).toBe(1)
    // The environment records the container's image and limits for the report.
    const env = JSON.parse(
      db.prepare('SELECT details FROM environment WHERE run_id = ?').pluck().get(summary.runId) as string,
    )
    expect(env.targets[0].containers[0]).toMatchObject({
      image: expect.stringMatching(/^cannonade\/node:24@sha256:/),
      cpus: 1,
      memoryBytes: 512 * 1024 * 1024,
    })
  }, 120_000)

  it('a POOL_SIZE sweep restarts the stack with each value (the pool-sizing study)', async () => {
    const dbPath = tempDbPath()
    const seen: string[] = []
    const { runs } = await runStudy(
      openDb(dbPath),
      dbPath,
      parseRunConfig({
        version: 1,
        name: 'pool',
        targets: [
          {
            name: 'node-http',
            url: 'http://127.0.0.1:8082/ads?limit=5',
            stack: { name: 'node-http', env: { POOL_SIZE: 2 } },
          },
        ],
        load: { connections: 4, duration: 1 },
        cooldownSeconds: 0,
        sweep: { path: 'targets.0.stack.env.POOL_SIZE', values: [2, 6] },
      }),
      {
        restartStack: async (s) => {
          await stacks.down(s.name)
          await stacks.up(s.name, { env: s.env })
          const id = spawnSync(
            'docker',
            [
              'ps',
              '-q',
              '--filter',
              'label=com.docker.compose.project=cannonade-node-http',
              '--filter',
              'label=com.docker.compose.service=app',
            ],
            { encoding: 'utf8' },
          ).stdout.trim()
          const env = spawnSync(
            'docker',
            ['inspect', '--format', '{{range .Config.Env}}{{println .}}{{end}}', id],
            { encoding: 'utf8' },
          ).stdout
          seen.push(/POOL_SIZE=(\d+)/.exec(env)?.[1] ?? 'none')
        },
      },
    )
    expect(seen).toEqual(['2', '6'])
    expect(runs.map((r) => r.summary.status)).toEqual(['done', 'done'])
    for (const r of runs) expect(r.summary.results[0]!.ok).toBeGreaterThan(10)
  }, 300_000)

  it('refuses an unknown stack and a taken port, clearly', async () => {
    await expect(stacks.up('nope')).rejects.toMatchObject({
      code: 'not-found',
      message: expect.stringMatching(/known stacks: node-http/),
    })
    const blocker = http.createServer().listen(8083, '127.0.0.1')
    await new Promise((r) => blocker.once('listening', r))
    try {
      await expect(stacks.up('node-cluster')).rejects.toMatchObject({
        code: 'conflict',
        message: expect.stringMatching(/port 8083 is already in use/),
      })
      expect(running('cannonade-node-cluster')).toBe(0)
    } finally {
      blocker.close()
    }
  })

  it('health never reached: a time-out with the last log lines, and nothing left running', async () => {
    const impatient = new Stacks({ stateDir: join(dirname(tempDbPath()), 'native'), healthTimeoutMs: 1 })
    await expect(impatient.up('node-cluster')).rejects.toSatisfy(
      (e: unknown) => e instanceof ApiError && /never answered .* Last log lines/s.test(e.message),
    )
    expect(running('cannonade-node-cluster')).toBe(0)
  }, 900_000)
})

describe('native stacks', () => {
  it('runs node-http as a local process against a local PostgreSQL, the same API, and down stops it', async () => {
    const stacks = new Stacks({ stateDir: join(dirname(tempDbPath()), 'native') })
    const st = await stacks.up('node-http', { native: true, port: 18_082, env: { POOL_SIZE: 4 } })
    try {
      expect(st.state).toBe('native')
      expect(st.url).toBe('http://127.0.0.1:18082')
      const ads = (await (await fetch(`${st.url}/ads?limit=3`)).json()) as unknown[]
      expect(ads.length).toBe(3)
    } finally {
      await stacks.down('node-http')
    }
    await expect(fetch(`${st.url}/health`)).rejects.toThrow()
  }, 300_000)
})

describe('stacks without Docker', () => {
  it('says Docker is not installed and points to --native', () => {
    const path = process.env.PATH
    process.env.PATH = '/nonexistent'
    try {
      expect(() => detectCompose({ fresh: true })).toThrow(/Docker is not installed.*--native/)
    } finally {
      process.env.PATH = path
    }
  })
})
