// End to end on this machine (issue 13): `--agents 2` starts two `cannonade agent` processes with
// the embedded store, no PostgreSQL. The merged run is the exact sum of what the agents recorded
// (totals, raw rows, histograms), correlation ids are unique across agents, they start together,
// and an agent killed mid-run makes the run partial, named with when. Against a counting target.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AgentsEvent, ProgressEvent, RunSummary } from '../api/types.ts'
import { main } from '../cli/main.ts'
import { parseRunConfig } from '../config/load.ts'
import { roundOrder } from '../config/segments.ts'
import { encodeHistogram, initHdr, mergeEncoded } from '../metrics/hdr.ts'
import { openDb, type Db } from '../db/db.ts'
import { agentLedger, openAgentLedger } from '../testing/agents.ts'
import { capturedCli } from '../testing/cli.ts'
import { tempDbPath } from '../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import { launchRun } from './launch-run.ts'
import { startDistributedRun } from './distributed.ts'
import { LocalLauncher } from './launchers/local.ts'
import { MemoryStore } from './coordination/memory.ts'
import { exportJson } from '../exports/json.ts'
import { importJson } from '../exports/json-import.ts'
import { HistoryStore } from '../store/history-store.ts'

let target: CountingTarget | null = null
beforeAll(async () => {
  await initHdr()
})
afterEach(async () => {
  await target?.close()
  target = null
})

const config = (url: string, o: { duration: number; raw?: 'keep' | 'upload'; connections?: number }) =>
  parseRunConfig({
    version: 1,
    name: 'two agents',
    targets: [{ name: 't', url: `${url}/x` }],
    load: { connections: o.connections ?? 6, duration: o.duration },
    cooldownSeconds: 0,
    agents: { count: 2, raw: o.raw ?? 'keep', lostAfterSeconds: 3 },
  })

async function run(
  cfg: ReturnType<typeof config>,
  during?: (e: ProgressEvent, run: { kill(pid: number): void; stop(): void }) => void,
): Promise<{ summary: RunSummary; db: Db; progress: ProgressEvent[]; agents: AgentsEvent[] }> {
  const dbPath = tempDbPath()
  const db = openDb(dbPath)
  const progress: ProgressEvent[] = []
  const agents: AgentsEvent[] = []
  const control = { kill: (pid: number) => process.kill(pid, 'SIGKILL'), stop: () => {} }
  const handle = await launchRun(db, dbPath, cfg, {
    onProgress: (e) => {
      progress.push(e)
      during?.(e, control)
    },
    onAgents: (e) => agents.push(e),
  })
  control.stop = () => handle.stop()
  const summary = await handle.done
  // The run is done before its ledger blocks are rows (ledger/expander.ts); these tests read rows.
  await handle.stored
  return { summary, db, progress, agents }
}

describe('two local agents, embedded coordination', () => {
  it('merge into one exact run: totals, raw rows, ids, histograms, seconds and start', async () => {
    target = await startTarget({ delayMs: 1 })
    const { summary, db, progress, agents } = await run(config(target.url, { duration: 3, raw: 'upload' }))
    expect({ status: summary.status, error: summary.error }).toMatchObject({ status: 'done' })
    // The live view hears of the agents before any load: joining (or still waiting), then each
    // state change, the last one both agents done.
    const beforeLoad = agents.filter((e) => e.agents.every((a) => a.state !== 'running'))
    expect(beforeLoad.length).toBeGreaterThan(0)
    expect(beforeLoad.every((e) => e.runId === summary.runId)).toBe(true)
    for (const e of agents)
      expect(
        [...e.agents.map((a) => a.index), ...e.waiting].sort(),
        'every agent is either joined or waiting',
      ).toEqual([0, 1])
    expect(agents.at(-1)!.agents.map((a) => [a.index, a.state])).toEqual([
      [0, 'done'],
      [1, 'done'],
    ])
    const d = summary.distribution!
    expect(d.agents).toBe(2)
    expect(d.store).toBe('embedded')
    expect(d.perAgent.map((a) => a.state)).toEqual(['done', 'done'])
    const [merged] = summary.results
    // Each agent's own ledger (its local SQLite file) against the merged run.
    const ledgers = d.perAgent.map((a) => agentLedger(a.ledger.path.slice(a.ledger.path.indexOf(':') + 1)))
    const rows = ledgers.reduce((n, l) => n + l.rows, 0)
    const inflight = merged!.errors.inflight ?? 0
    expect(merged!.requests + inflight).toBe(rows)
    expect(merged!.requests).toBe(d.perAgent.reduce((n, a) => n + a.requests, 0))
    // Uploaded (--raw upload): the merged run holds every agent's raw rows.
    const stored = db
      .prepare('SELECT seq FROM samples WHERE run_id = ?')
      .pluck()
      .all(summary.runId) as number[]
    expect(stored.length).toBe(rows)
    expect(new Set(stored).size).toBe(stored.length)
    // Agent i numbers its requests i, i + 2, …: ids are unique across agents.
    ledgers.forEach((l, i) => expect(l.seqs.every((s) => s % 2 === i)).toBe(true))
    const ids = new Set(stored.map((s) => `${summary.correlationPrefix}-${String(s).padStart(10, '0')}`))
    expect(new Set(target.ids).size).toBe(target.ids.length)
    expect(target.ids.every((id) => ids.has(id))).toBe(true)
    expect(ids.size - target.ids.length).toBeLessThanOrEqual(inflight)
    // The merged histogram is the sum of the agents' histograms, bucket for bucket.
    const sum = mergeEncoded(ledgers.map((l) => l.histograms[0]!))
    expect(merged!.histogram).toBe(encodeHistogram(sum))
    for (const p of [50, 90, 99, 99.9]) {
      const key = p === 99.9 ? 'p999' : (`p${p}` as 'p50' | 'p90' | 'p99')
      expect(merged!.latency[key]).toBe(Math.min(sum.getValueAtPercentile(p), merged!.latency.max))
    }
    sum.destroy()
    // Every second holds both agents, the profile's connections, and sums to the total.
    const series = db
      .prepare('SELECT t, connections, requests, agents FROM series WHERE run_id = ? ORDER BY t')
      .all(summary.runId) as { t: number; connections: number; requests: number; agents: number }[]
    expect(series.map((s) => s.t)).toEqual([0, 1, 2])
    expect(series.every((s) => s.agents === 2 && s.connections === 6)).toBe(true)
    expect(series.reduce((n, s) => n + s.requests, 0)).toBe(merged!.requests)
    expect(progress.map((p) => p.point.t)).toEqual([0, 1, 2])
    expect(progress.every((p) => p.agents?.length === 2)).toBe(true)
    // Both started at the release: the spread of their starts is what the run keeps as its skew.
    // It is ~1 ms on a quiet machine (printed); a busy one wakes a process late, so the bound
    // here is only what no barrier could give: agents whose processes start hundreds of ms apart.
    const starts = d.perAgent.map((a) => a.startSkewMs[0]!)
    console.log(`start skew ${d.skewMs} ms; per agent after the release ${starts.join(', ')} ms`)
    expect(d.skewMs).toBeCloseTo(Math.max(...starts) - Math.min(...starts), 1)
    expect(d.skewMs).toBeLessThan(250)
    expect(d.perAgent.every((a) => a.offsetMs !== null && Math.abs(a.offsetMs) < 5)).toBe(true)
    // An export carries the run's distribution block to another database.
    const file = join(mkdtempSync(join(tmpdir(), 'cannonade-agents-json-')), 'run.json')
    await exportJson(db, [summary.runId], file)
    const other = openDb(':memory:')
    const [imported] = importJson(other, file).runIds
    expect(new HistoryStore(other).getRun(imported!).distribution).toEqual(d)
    other.close()
    db.close()
  })

  it('in rate mode the agents send every other slot of one grid: the merged rate is exact', async () => {
    target = await startTarget({ delayMs: 1 })
    const cfg = parseRunConfig({
      version: 1,
      name: 'two agents, open loop',
      targets: [{ name: 't', url: `${target.url}/x` }],
      // Just short of 3 s: slot 60 (due at 3.000 s) is outside, so the count does not hang on
      // which of two timers due at the window's end fires first.
      load: { connections: 4, duration: 2.99, rate: 20 },
      cooldownSeconds: 0,
      agents: { count: 2 },
    })
    const { summary, db } = await run(cfg)
    expect({ status: summary.status, error: summary.error }).toMatchObject({ status: 'done' })
    const [merged] = summary.results
    // 20 requests/s for 2.99 s: 60 slots, 30 per agent, whatever the machine's speed.
    expect(merged!.requests + (merged!.errors.inflight ?? 0)).toBe(60)
    expect(summary.distribution!.perAgent.map((a) => a.ledger.rows)).toEqual([30, 30])
    // The schedule and the connect times are the sums of the agents' parts.
    expect(merged!.schedule!.scheduled).toBe(60)
    expect(merged!.schedule!.sent + merged!.schedule!.unsent).toBe(60)
    expect(merged!.schedule!.lateness.count).toBeGreaterThan(50)
    expect(merged!.connect!.count).toBeGreaterThanOrEqual(4) // 2 connections per agent, at least
    // Intended send times (from the ledger: sent − (corrected − latency); connections may send
    // their slots out of order) sit on one 50 ms grid,
    // agent 0 on its even slots and agent 1 on its odd ones.
    const grids = summary.distribution!.perAgent.map((a) => {
      const ledger = openAgentLedger(a.ledger.path.slice(a.ledger.path.indexOf(':') + 1))
      const rows = ledger
        .prepare(
          'SELECT start_us - corrected_us + latency_us AS intended FROM samples WHERE corrected_us IS NOT NULL ORDER BY intended',
        )
        .pluck()
        .all() as number[]
      ledger.close()
      return rows.map((us) => us / 1000)
    })
    for (const g of grids) {
      // (A send that left earlier than its latency has no corrected value to read it from.)
      expect(g.length).toBeGreaterThanOrEqual(20)
      for (const ms of g) {
        const periods = (ms - g[0]!) / 100
        expect(Math.abs(periods - Math.round(periods)), `${ms} ms`).toBeLessThan(0.001)
      }
    }
    // The two grids are half a period apart (each measured from its own, synchronized, start).
    const apart = (((grids[1]![0]! - grids[0]![0]!) % 100) + 100) % 100
    expect(Math.abs(apart - 50)).toBeLessThan(5)
    db.close()
  })

  it('run every round in the one seeded random order the run stores, each agent alike', async () => {
    // Two targets 1 ms and 8 ms apart: were an agent to run another order than the coordinator
    // merges, a segment would mix the two and its p50 would fall between them.
    const fast = await startTarget({ delayMs: 1 })
    target = await startTarget({ delayMs: 8 })
    try {
      const cfg = parseRunConfig({
        version: 1,
        name: 'two agents, random order',
        targets: [
          { name: 'fast', url: `${fast.url}/x` },
          { name: 'slow', url: `${target.url}/x` },
        ],
        load: { connections: 2, duration: 1 },
        rounds: 3,
        cooldownSeconds: 0,
        agents: { count: 2, raw: 'keep', lostAfterSeconds: 3 },
      })
      expect(cfg.schedule).toBe('randomized')
      const { summary, db } = await run(cfg)
      expect(summary.status).toBe('done')
      const stored = new HistoryStore(db).getRun(summary.runId)
      const seed = stored.config.scheduleSeed
      expect(seed).toBeTypeOf('number')
      expect(stored.rounds.orders).toEqual(
        [1, 2, 3].map((round) => ({
          round,
          targets: roundOrder(stored.config, round).map((i) => stored.config.targets[i]!.name),
        })),
      )
      for (const r of summary.results) {
        expect(r.requests, `${r.target} #${r.round}`).toBeGreaterThan(0)
        if (r.target === 'fast') expect(r.latency.p50, `fast #${r.round}`).toBeLessThan(6000)
        else expect(r.latency.p50, `slow #${r.round}`).toBeGreaterThan(8000)
      }
    } finally {
      await fast.close()
    }
  })

  it('an agent killed mid-run makes the run partial, naming it and when; what it measured stays', async () => {
    target = await startTarget({ delayMs: 1 })
    let killed = -1
    const { summary, db } = await run(config(target.url, { duration: 5 }), (e, r) => {
      const victim = e.agents?.find((a) => a.index === 1)
      if (e.point.t === 1 && killed < 0 && victim) {
        killed = victim.pid
        r.kill(victim.pid)
      }
    })
    expect({ status: summary.status, error: summary.error }).toMatchObject({ status: 'partial' })
    expect(killed).toBeGreaterThan(0)
    expect(summary.error).toMatch(
      /1 of 2 agents did not finish: agent 1 \(.*\) lost at run second [12]: its process ended \(signal SIGKILL\)/,
    )
    const [a0, a1] = summary.distribution!.perAgent
    expect(a0!.state).toBe('done')
    expect(a1!.state).toBe('lost')
    expect(a1!.requests).toBeGreaterThan(0) // its reported seconds count
    const agents = db
      .prepare('SELECT t, agents FROM series WHERE run_id = ? ORDER BY t')
      .all(summary.runId) as { t: number; agents: number }[]
    expect(agents[0]!.agents).toBe(2)
    expect(agents.at(-1)!.agents).toBe(1)
    expect(summary.results[0]!.requests).toBe(a0!.requests + a1!.requests)
    db.close()
  })

  it('an agent lost before it uploaded: runs show and the exports count it, name it and point to its ledger, which import ledger brings in (issue 29, item 15)', async () => {
    target = await startTarget({ delayMs: 1 })
    let killed = -1
    const { summary, db } = await run(config(target.url, { duration: 4, raw: 'upload' }), (e, r) => {
      const victim = e.agents?.find((a) => a.index === 1)
      if (e.point.t === 1 && killed < 0 && victim) {
        killed = victim.pid
        r.kill(victim.pid)
      }
    })
    expect(summary.status).toBe('partial')
    const a1 = summary.distribution!.perAgent[1]!
    expect(a1.state).toBe('lost')
    const stored = db
      .prepare('SELECT count(*) FROM samples WHERE run_id = ?')
      .pluck()
      .get(summary.runId) as number
    const sent = summary.results[0]!.requests
    // The database holds agent 0's ledger; what the run counted of agent 1 is said, with where it is.
    const a0 = summary.distribution!.perAgent[0]!
    expect(stored).toBe(a0.ledger.rows)
    expect(sent).toBe(a0.requests + a1.requests)
    const path = a1.ledger.path.slice(a1.ledger.path.indexOf(':') + 1)
    const id = String(summary.runId)
    const cli = () => capturedCli(db.name)
    const show = cli()
    expect(await main(['runs', 'show', id], show.ctx)).toBe(0)
    expect(show.out()).toContain(`${a1.requests.toLocaleString('en-US')} more are not in this database`)
    expect(show.out()).toContain('agent 1 was lost before its raw ledger was uploaded')
    expect(show.out()).toContain(path)
    const csv = cli()
    expect(await main(['export', 'csv', id, '--out', join(dirname(db.name), 's.csv')], csv.ctx)).toBe(1)
    expect(csv.err()).toContain(`cannonade import ledger FILE --run ${id}`)
    expect(csv.err()).toContain(path)
    // Its ledger holds what it measured (and what it sent after its last second was merged).
    const imp = cli()
    expect(await main(['import', 'ledger', path, '--run', id], imp.ctx), imp.err()).toBe(0)
    const now = db
      .prepare('SELECT count(*) FROM samples WHERE run_id = ?')
      .pluck()
      .get(summary.runId) as number
    expect(now).toBeGreaterThanOrEqual(sent)
    const after = cli()
    expect(await main(['runs', 'show', id], after.ctx)).toBe(0)
    expect(after.out()).not.toContain('not in this database')
    db.close()
  })

  it('a stop ends every agent at once: the run is aborted, with what they measured', async () => {
    target = await startTarget({ delayMs: 1 })
    let stopped = false
    const { summary, db } = await run(config(target.url, { duration: 30 }), (e, r) => {
      if (e.point.t === 1 && !stopped) {
        stopped = true
        r.stop()
      }
    })
    expect({ status: summary.status, error: summary.error }).toMatchObject({ status: 'aborted' })
    expect(summary.error).toBe('stopped before the end of its window')
    expect(summary.distribution!.perAgent.map((a) => a.state)).toEqual(['stopped', 'stopped'])
    const seconds = db
      .prepare('SELECT max(t) FROM series WHERE run_id = ?')
      .pluck()
      .get(summary.runId) as number
    expect(seconds).toBeLessThan(10)
    expect(summary.results[0]!.requests).toBeGreaterThan(0)
    db.close()
  })

  it('agents refused at join (started for another count) fail the run at once, saying why', async () => {
    target = await startTarget()
    const dbPath = tempDbPath()
    const db = openDb(dbPath)
    const store = new MemoryStore()
    const inner = new LocalLauncher({ embedded: store, dataDir: join(dbPath, '..', 'agents') })
    const handle = await startDistributedRun(
      db,
      config(target.url, { duration: 5 }),
      {},
      {
        agentDataDir: join(dbPath, '..', 'agents'),
        store,
        // A launcher that gets the count wrong: each agent is refused and exits 2.
        launcher: () => ({
          kind: inner.kind,
          store: inner.store,
          follow: (onEvent) => inner.follow(onEvent),
          stop: (o) => inner.stop(o),
          start: (env, n) => inner.start({ ...env, CANNONADE_AGENT_COUNT: '3' }, n),
        }),
      },
    )
    const summary = await handle.done
    expect(summary.status).toBe('failed')
    // Whichever agent is refused first fails the run (the other may not have ended yet).
    expect(summary.error).toMatch(
      /^the run did not start: .*agent (\d) missing: ended \(exit code 2\) before joining: cannonade agent: agent \1 was started for 3 agents, but run [0-9a-f]{16} has 2/,
    )
    expect(target.requests).toBe(0)
    db.close()
  })

  it('`cannonade run --agents 2 --json` gains "agents": 2 and a per-agent breakdown', async () => {
    target = await startTarget({ delayMs: 1 })
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-agents-cli-'))
    const file = join(dir, 'run.json')
    const { agents: _agents, ...plain } = config(target.url, { duration: 2 })
    writeFileSync(file, JSON.stringify(plain))
    const { ctx, out, err } = capturedCli(join(dir, 'c.db'))
    const code = await main(['run', file, '--agents', '2', '--json', join(dir, 's.json')], ctx)
    expect(err()).toMatch(/2 agents \(local\)/)
    expect(code).toBe(0)
    const json = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8')) as {
      runId: number
      agents: number
      targets: { requests: number }[]
      distribution: { perAgent: { index: number; requests: number; ledger: { path: string } }[] }
    }
    expect(json.agents).toBe(2)
    expect(json.distribution.perAgent.map((a) => a.index)).toEqual([0, 1])
    expect(json.targets[0]!.requests).toBe(json.distribution.perAgent.reduce((n, a) => n + a.requests, 0))
    expect(out()).toMatch(/2 agents \(local, embedded store\): start skew/)
    // The agents' own ledgers stay in the data folder until their run is deleted.
    const ledgers = json.distribution.perAgent.map((a) => a.ledger.path.slice(a.ledger.path.indexOf(':') + 1))
    expect(ledgers.every((p) => p.startsWith(join(dir, 'agents')) && existsSync(p))).toBe(true)
    expect(await main(['runs', 'delete', String(json.runId)], ctx)).toBe(0)
    expect(ledgers.some((p) => existsSync(dirname(p)))).toBe(false)
    expect(await main(['run', file, '--on', 'docker'], ctx)).toBe(2)
    expect(err()).toMatch(/--on and --raw go with --agents N/)
  })
})
