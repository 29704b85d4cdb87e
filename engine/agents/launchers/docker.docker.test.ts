// End to end with a real Docker engine (issue 13): `cannonade run --agents 2 --on docker` runs two
// agent containers, `--on swarm` a replicated job of two tasks on a single-node swarm, both built
// from this repository (engine/agents/launchers/image.ts, once for both) and coordinated through a real
// PostgreSQL. The agents use the host's network (the launchers' default), so they reach the
// counting target and the throwaway PostgreSQL on this machine's 127.0.0.1. The merged run must be
// the exact sum of the agents' figures and of what the target received; ids unique; starts
// together; the store's password on no command line; nothing left behind. Without Docker or
// PostgreSQL the tests are skipped with the reason printed, and fail under CANNONADE_REQUIRE_DOCKER=1.
import { execFile, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Distribution } from '../../api/types.ts'
import { main } from '../../cli/main.ts'
import { initHdr } from '../../metrics/hdr.ts'
import { runBlocks } from '../../ledger/blocks.ts'
import { openDb } from '../../db/db.ts'
import { capturedCli } from '../../testing/cli.ts'
import { dockerGate } from '../../testing/docker.ts'
import { pgAvailableForTests, startPg, type PgCluster } from '../../testing/pg.ts'
import { startTarget } from '../../testing/target.ts'
import { ensureAgentImage, IMAGE_BUILD_TIMEOUT_MS } from './image.ts'

const gate = dockerGate('Docker and Swarm load agent tests')
const pgHere = !gate.skip && pgAvailableForTests()
const exec = promisify(execFile)
/** Whether this engine is in a swarm as the tests start (they make one only when it is in none). */
const swarmAtLoad = gate.skip
  ? null
  : spawnSync('docker', ['info', '--format', '{{.Swarm.LocalNodeState}}'], {
      encoding: 'utf8',
      timeout: 20_000,
    }).stdout?.trim()
if (!gate.skip && swarmAtLoad !== 'inactive')
  console.warn(`skipping the no-swarm test: this Docker engine's swarm is ${swarmAtLoad}, not inactive`)

function docker(...args: string[]): string[] {
  const r = spawnSync('docker', args, { encoding: 'utf8', timeout: 60_000 })
  if (r.status !== 0) throw new Error(`docker ${args.join(' ')}: ${r.stderr || r.error?.message}`)
  return r.stdout.split('\n').filter(Boolean)
}

interface CliRun {
  code: number
  out: string
  err: string
  runKey: string
  /** Command lines seen while the run went on that held the store's password. */
  leaked: string[]
  json: {
    runId: number
    agents: number
    targets: { requests: number; errors: number; latency: { p50: number; max: number } }[]
    distribution: Distribution
  }
  /** The correlation ids of the requests the merged run holds (uploaded raw rows). */
  ids: Set<string>
  seqs: number[]
  series: { t: number; agents: number; requests: number }[]
}

describe.skipIf(gate.skip || !pgHere)('load agents in Docker containers and a Swarm job', () => {
  let pg: PgCluster | null = null

  beforeAll(async () => {
    if (gate.reason) throw new Error(`CANNONADE_REQUIRE_DOCKER=1 but Docker is unavailable: ${gate.reason}`)
    await initHdr()
    pg = await startPg({ durable: false })
    // One build (or none: the image is found by the hash of its inputs) for both launchers.
    const tag = await ensureAgentImage({ onLine: (l) => console.log(l) })
    console.log(`agent image ${tag}`)
  }, IMAGE_BUILD_TIMEOUT_MS)
  afterAll(async () => {
    await pg?.stop()
  })

  /** `cannonade run CONFIG --agents 2 --on <on> --raw upload --json` against a counting target. */
  async function cliRun(on: 'docker' | 'swarm', targetUrl: string): Promise<CliRun> {
    const dir = mkdtempSync(join(tmpdir(), `cannonade-agents-${on}-`))
    const file = join(dir, 'run.json')
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        name: `two ${on} agents`,
        targets: [{ name: 't', url: `${targetUrl}/x` }],
        load: { connections: 4, duration: 2 },
        cooldownSeconds: 0,
      }),
    )
    const { ctx, out, err } = capturedCli(join(dir, 'c.db'))
    // The store's URL comes from the environment, as a user gives it.
    process.env.CANNONADE_STORE_URL = pg!.url
    const leaked: string[] = []
    let running = true
    // Every command line on this machine while the run goes on (bounded by the run itself).
    const watch = (async () => {
      while (running) {
        const { stdout } = await exec('ps', ['-eo', 'args'], { maxBuffer: 1 << 24 })
        leaked.push(...stdout.split('\n').filter((l) => l.includes(pg!.password)))
        await new Promise((r) => setTimeout(r, 200))
      }
    })()
    let code: number
    try {
      code = await main(
        ['run', file, '--agents', '2', '--on', on, '--raw', 'upload', '--json', join(dir, 's.json')],
        ctx,
      )
    } finally {
      running = false
      delete process.env.CANNONADE_STORE_URL
      await watch
    }
    const runKey = /CANNONADE_RUN=([0-9a-f]{16})/.exec(err())?.[1] ?? ''
    if (code !== 0) return { code, out: out(), err: err(), runKey, leaked } as CliRun
    const json = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8')) as CliRun['json']
    const db = openDb(ctx.dbPath)
    // Its requests: rows, and those still in blocks (expanded in the background after the run).
    const seqs = db.transaction(() => [
      ...(db.prepare('SELECT seq FROM samples WHERE run_id = ?').pluck().all(json.runId) as number[]),
      ...[...runBlocks(db, json.runId)].flatMap((b) => [...b.columns.seq]),
    ])()
    const prefix = db
      .prepare('SELECT correlation_prefix FROM runs WHERE id = ?')
      .pluck()
      .get(json.runId) as string
    const series = db
      .prepare('SELECT t, agents, requests FROM series WHERE run_id = ? ORDER BY t')
      .all(json.runId) as CliRun['series']
    db.close()
    const ids = new Set(seqs.map((s) => `${prefix}-${String(s).padStart(10, '0')}`))
    return { code, out: out(), err: err(), runKey, leaked, json, ids, seqs, series }
  }

  /** What both launchers must give: one exact run of two agents, as the target saw it. */
  async function expectExactRun(on: 'docker' | 'swarm'): Promise<CliRun> {
    const target = await startTarget({ delayMs: 1 })
    let r: CliRun
    const t0 = Date.now()
    try {
      r = await cliRun(on, target.url)
    } finally {
      await target.close()
    }
    expect({ code: r.code, err: r.code === 0 ? '' : r.err }).toEqual({ code: 0, err: '' })
    const d = r.json.distribution
    expect(r.json.agents).toBe(2)
    expect({ on: d.on, store: d.store }).toEqual({ on, store: 'postgres' })
    expect(d.perAgent.map((a) => [a.index, a.state])).toEqual([
      [0, 'done'],
      [1, 'done'],
    ])
    const merged = r.json.targets[0]!
    const perAgent = d.perAgent.map((a) => a.requests)
    console.log(
      `${on} (${((Date.now() - t0) / 1000).toFixed(1)} s): merged ${merged.requests} requests = agents ${perAgent.join(' + ')}; the target received ${target.requests}; ` +
        `start skew ${d.skewMs} ms (after the release: ${d.perAgent.map((a) => a.startSkewMs[0]).join(', ')} ms); ` +
        `offsets ${d.perAgent.map((a) => a.offsetMs?.toFixed(2)).join(', ')} ms; ` +
        `latency p50 ${merged.latency.p50} µs, max ${merged.latency.max} µs; seconds ${r.series.map((s) => `t${s.t}: ${s.requests} from ${s.agents}`).join(', ')}; hosts ${d.perAgent.map((a) => a.host).join(', ')}`,
    )
    // The merged total is the sum of the agents' own; each agent sent its share.
    expect(merged.requests).toBe(perAgent.reduce((a, b) => a + b, 0))
    expect(perAgent.every((n) => n > 0)).toBe(true)
    // What the target received is what the agents sent: every raw row uploaded, ids unique
    // across agents (agent i numbers i, i + 2, …), the target's ids all among them; a request
    // still in flight at the window's end reached the target without being counted as done.
    expect(new Set(r.seqs).size).toBe(r.seqs.length)
    expect(r.seqs.length).toBe(d.perAgent.reduce((n, a) => n + a.ledger.rows, 0))
    expect(new Set(target.ids).size).toBe(target.ids.length)
    expect(target.ids.every((id) => r.ids.has(id))).toBe(true)
    expect(target.requests).toBeGreaterThanOrEqual(merged.requests)
    expect(target.requests - merged.requests).toBeLessThanOrEqual(r.seqs.length - merged.requests)
    // The window's two seconds hold both agents, and the seconds sum to the total. (An agent
    // that started late may finish a few ms into second 2: local.test.ts bounds that on its own.)
    expect(r.series.slice(0, 2).map((s) => [s.t, s.agents])).toEqual([
      [0, 2],
      [1, 2],
    ])
    expect(r.series.reduce((n, s) => n + s.requests, 0)).toBe(merged.requests)
    // Started together at the release; the bound is only what no barrier gives (see local.test.ts).
    expect(d.skewMs).toBeLessThan(250)
    // One machine, one clock: offsets to the store are ~0.
    expect(d.perAgent.every((a) => a.offsetMs !== null && Math.abs(a.offsetMs) < 5)).toBe(true)
    // The store's password went on no command line and into no output.
    expect(r.leaked).toEqual([])
    expect(`${r.out}${r.err}`).not.toContain(pg!.password)
    expect(r.runKey).toMatch(/^[0-9a-f]{16}$/)
    return r
  }

  it('`cannonade run --agents 2 --on docker`: two containers, one exact run, nothing left behind', async () => {
    const r = await expectExactRun('docker')
    expect(r.json.distribution.perAgent.map((a) => a.host)).toEqual([
      `cannonade-agent-${r.runKey}-0`,
      `cannonade-agent-${r.runKey}-1`,
    ])
    expect(docker('ps', '--all', '--quiet', '--filter', `label=org.cannonade.run=${r.runKey}`)).toEqual([])
  }, 180_000)

  it.skipIf(swarmAtLoad !== 'inactive')(
    '`--on swarm` on an engine in no swarm fails before any load, saying how to make one',
    async () => {
      const target = await startTarget()
      try {
        const r = await cliRun('swarm', target.url)
        expect(r.code).not.toBe(0)
        expect(r.err).toMatch(
          /agents\.on swarm: this Docker engine is in no swarm \(inactive\): run `docker swarm init`/,
        )
        expect(target.requests).toBe(0)
        const label = `label=org.cannonade.run=${r.runKey}`
        expect(docker('ps', '--all', '--quiet', '--filter', label)).toEqual([])
      } finally {
        await target.close()
      }
    },
    60_000,
  )

  describe('on a single-node swarm', () => {
    // This engine joins a swarm for the test only when it is in none, and leaves it only then.
    let initialised = false
    beforeAll(() => {
      const [state] = docker('info', '--format', '{{.Swarm.LocalNodeState}}')
      if (state === 'inactive') {
        docker('swarm', 'init', '--advertise-addr', '127.0.0.1')
        initialised = true
      }
    }, 120_000)
    afterAll(() => {
      if (initialised) docker('swarm', 'leave', '--force')
    }, 120_000)

    it('`cannonade run --agents 2 --on swarm`: a replicated job of two tasks, one exact run, nothing left behind', async () => {
      const r = await expectExactRun('swarm')
      // Indexes are the tasks' slots (0 and 1: slot 0 is mapped back from the node's ID).
      expect(
        r.json.distribution.perAgent.map((a) => a.host.endsWith(`cannonade-agents-${r.runKey}.${a.index}`)),
      ).toEqual([true, true])
      const label = `label=org.cannonade.run=${r.runKey}`
      expect(docker('service', 'ls', '--quiet', '--filter', label)).toEqual([])
      expect(docker('secret', 'ls', '--quiet', '--filter', label)).toEqual([])
      expect(
        docker(
          'ps',
          '--all',
          '--quiet',
          '--filter',
          `label=com.docker.swarm.service.name=cannonade-agents-${r.runKey}`,
        ),
      ).toEqual([])
    }, 180_000)
  })
})
