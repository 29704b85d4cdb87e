// Runs of agents coordinated through a real PostgreSQL (a throwaway cluster), as agents on other
// machines would be (issue 13): an agent that never reaches the barrier is named and the run does
// not start; an agent whose heartbeats stop makes the run partial, named with when; and agents
// whose clocks are seconds apart still start together and report the same seconds, which line up
// with what the target itself saw.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ProgressEvent, RunSummary } from '../../api/types.ts'
import { parseRunConfig } from '../../config/load.ts'
import { pgForFile } from '../../testing/pg-file.ts'
import { openDb, type Db } from '../../db/db.ts'
import { InProcessLauncher, withoutExits } from '../../testing/agents.ts'
import { tempDbPath } from '../../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../../testing/target.ts'
import type { AgentResult } from '../agent.ts'
import { startDistributedRun, type DistributedOptions } from '../distributed.ts'
import { LocalLauncher } from '../launchers/local.ts'
import { wallMs } from './memory.ts'
import { PgAgentStore } from './pg-agent.ts'
import { PgCoordinatorStore } from './pg-coordinator.ts'

const { available: pgOk, cluster: pg } = pgForFile()

let target: CountingTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

const config = (url: string, o: { duration: number; barrier?: number; lost?: number }) =>
  parseRunConfig({
    version: 1,
    name: 'agents over postgres',
    targets: [{ name: 't', url: `${url}/x` }],
    load: { connections: 4, duration: o.duration },
    cooldownSeconds: 0,
    agents: {
      count: 2,
      on: 'docker',
      barrierTimeoutSeconds: o.barrier ?? 30,
      lostAfterSeconds: o.lost ?? 10,
    },
  })

async function run(
  cfg: ReturnType<typeof config>,
  launcher: DistributedOptions['launcher'],
  onProgress?: (e: ProgressEvent) => void,
): Promise<{ summary: RunSummary; db: Db; t0: number }> {
  const dbPath = tempDbPath()
  const db = openDb(dbPath)
  let t0 = 0
  const handle = await startDistributedRun(
    db,
    cfg,
    { onProgress, onStarted: (s) => (t0 = s.t0Epoch) },
    { agentDataDir: join(dbPath, '..', 'agents'), store: new PgCoordinatorStore(pg().url), launcher },
  )
  return { summary: await handle.done, db, t0 }
}

describe.skipIf(!pgOk)('agents coordinated through PostgreSQL', () => {
  it('names an agent that never reaches the barrier, and the run does not start', async () => {
    target = await startTarget()
    const launcher = new InProcessLauncher({
      store: 'postgres',
      storeUrl: pg().url,
      make: () => ({ store: new PgAgentStore(pg().url) }),
      indexes: [0],
    })
    const { summary } = await run(config(target.url, { duration: 2, barrier: 2 }), () => launcher)
    expect({ status: summary.status, error: summary.error }).toMatchObject({ status: 'failed' })
    expect(summary.error).toMatch(/^the run did not start: agent 1 missing: never joined$/)
    expect(summary.distribution!.perAgent.map((a) => a.state)).toEqual(['stopped', 'missing'])
    const [agent0] = await Promise.all(launcher.results)
    expect((agent0 as AgentResult).state).toBe('stopped')
    expect(target.requests).toBe(0) // the agent that came waited at the barrier: no load was sent
  })

  it('an agent whose heartbeats stop is lost: the run is partial, naming it and when', async () => {
    target = await startTarget({ delayMs: 1 })
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-agents-pg-'))
    // Real `cannonade agent` processes reaching PostgreSQL; their exits are not reported (a remote
    // host that vanished), so only the missing heartbeats tell.
    const launcher = withoutExits(new LocalLauncher({ storeUrl: pg().url, dataDir: dir }))
    let killedAt = -1
    const { summary, db } = await run(
      config(target.url, { duration: 6, lost: 2 }),
      () => launcher,
      (e) => {
        const victim = e.agents?.find((a) => a.index === 1)
        if (e.point.t === 1 && killedAt < 0 && victim) {
          killedAt = e.point.t
          process.kill(victim.pid, 'SIGKILL')
        }
      },
    )
    expect(killedAt).toBe(1)
    expect({ status: summary.status, error: summary.error }).toMatchObject({ status: 'partial' })
    const lost = summary.distribution!.perAgent[1]!
    expect(lost.state).toBe('lost')
    expect(lost.error).toMatch(/^no heartbeat for \d+\.\d s \(limit 2 s\)$/)
    expect(lost.lostAtSecond).toBeGreaterThanOrEqual(0)
    expect(lost.lostAtSecond).toBeLessThanOrEqual(2)
    expect(summary.error).toMatch(
      new RegExp(`agent 1 \\(.+\\) lost at run second ${lost.lostAtSecond}: no heartbeat`),
    )
    expect(summary.distribution!.perAgent[0]!.state).toBe('done')
    // Each merged second says how many agents it holds: both at first, one after the loss.
    const series = db
      .prepare('SELECT t, agents FROM series WHERE run_id = ? ORDER BY t')
      .all(summary.runId) as {
      t: number
      agents: number
    }[]
    expect(series.map((s) => s.t)).toEqual([0, 1, 2, 3, 4, 5])
    expect(series[0]!.agents).toBe(2)
    expect(series.at(-1)!.agents).toBe(1)
    db.close()
  })

  it('agents with clocks seconds apart start together and their seconds line up with the target’s', async () => {
    // The target logs when each request arrived: the truth the agents' seconds are held against.
    const arrivals: [number, string][] = []
    const server = http.createServer((req, res) => {
      arrivals.push([Date.now(), String(req.headers['x-correlation-id'])])
      setTimeout(() => res.end('ok'), 2)
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const skews = [4000, -2500]
    const launcher = new InProcessLauncher({
      store: 'postgres',
      storeUrl: pg().url,
      make: (i) => ({ store: new PgAgentStore(pg().url), clock: () => wallMs() + skews[i]! }),
    })
    try {
      const { summary, t0 } = await run(config(url, { duration: 3 }), () => launcher)
      expect({ status: summary.status, error: summary.error }).toMatchObject({ status: 'done' })
      const d = summary.distribution!
      // Measured offsets undo the injected skews (to within the round trip's half).
      d.perAgent.forEach((a, i) => {
        expect(Math.abs(a.offsetMs! + skews[i]!)).toBeLessThanOrEqual(a.offsetErrorMs! + 1)
      })
      console.log(
        `offsets ${d.perAgent.map((a) => `${a.offsetMs}±${a.offsetErrorMs}`).join(', ')} ms; skew ${d.skewMs} ms`,
      )
      // Not the 6.5 s between their clocks: what a busy machine adds by waking a process late is
      // far less (and their seconds line up anyway, below).
      expect(d.skewMs).toBeLessThan(250)
      const results = (await Promise.all(launcher.results)) as AgentResult[]
      for (const [i, r] of results.entries()) {
        // The agent's own seconds (its local ledger) against the target's arrivals of its requests.
        const db = openDb(r.ledger)
        const own = db.prepare('SELECT t, requests FROM series ORDER BY t').all() as {
          t: number
          requests: number
        }[]
        db.close()
        expect(own.map((s) => s.t)).toEqual([0, 1, 2])
        const seen = [0, 0, 0]
        for (const [at, id] of arrivals) {
          if (Number(id.slice(id.lastIndexOf('-') + 1)) % 2 !== i) continue
          const second = Math.floor((at - t0) / 1000)
          if (second >= 0 && second < 3) seen[second]!++
        }
        own.forEach((s) => {
          expect(
            Math.abs(s.requests - seen[s.t]!),
            `agent ${i} second ${s.t}: ${s.requests} vs ${seen[s.t]}`,
          ).toBeLessThanOrEqual(Math.max(20, s.requests * 0.05))
        })
      }
    } finally {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    }
  })
})
