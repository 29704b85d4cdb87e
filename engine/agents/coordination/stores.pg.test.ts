// The coordination protocol, the same for both stores (issue 13): the embedded one local agents
// use and PostgreSQL (a real throwaway cluster). An index joins a run once, even when two agents
// race for it; barriers release every agent with the same instant; a stop reaches barriers and
// heartbeats; each row reaches the coordinator once, in the order its agent wrote it.
import { beforeAll, describe, expect, it } from 'vitest'
import { pgForFile } from '../../testing/pg-file.ts'
import { StatsAccumulator } from '../../metrics/accumulate.ts'
import { encodeStats, type EncodedStats } from '../../metrics/encoded.ts'
import { initHdr } from '../../metrics/hdr.ts'
import { MemoryStore } from './memory.ts'
import { PgAgentStore } from './pg-agent.ts'
import { PgCoordinatorStore } from './pg-coordinator.ts'
import { AgentRefused, type AgentStore, type CoordinatorStore, type RunSpec } from './protocol.ts'
import { parseRunConfig } from '../../config/load.ts'

const { available: pgOk, cluster: pg } = pgForFile()

let keys = 0
const spec = (agents: number): RunSpec => ({
  runKey: `${Date.now().toString(16).padStart(12, '0')}${(keys++).toString(16).padStart(4, '0')}`.slice(-16),
  agents,
  config: parseRunConfig({
    version: 1,
    name: 'protocol',
    targets: [{ name: 't', url: 'http://127.0.0.1:1/' }],
    load: { connections: 2, duration: 1 },
  }),
  correlationPrefix: 'abcd1234',
  heartbeatMs: 1000,
  lostAfterMs: 5000,
  raw: 'keep',
})

interface Stores {
  coordinator: CoordinatorStore
  agent: () => AgentStore
}

const kinds: [string, () => Stores][] = [
  [
    'embedded',
    () => {
      const m = new MemoryStore()
      return { coordinator: m, agent: () => m.connect() }
    },
  ],
  [
    'postgres',
    () => ({ coordinator: new PgCoordinatorStore(pg().url), agent: () => new PgAgentStore(pg().url) }),
  ],
]

const hello = (s: RunSpec, index: number, count = s.agents) => ({
  runKey: s.runKey,
  index,
  count,
  host: `host-${index}`,
  pid: 1000 + index,
  ledger: `/tmp/agent-${index}.db`,
})

/** A store opened for a run of `n` agents, each of them joined with its own index. */
async function joinedRun(make: () => Stores, n: number) {
  const { coordinator, agent } = make()
  const s = spec(n)
  await coordinator.open(s)
  const a = Array.from({ length: n }, () => agent())
  await Promise.all(a.map((x, i) => x.join(hello(s, i))))
  return { coordinator, a }
}

/** One request's statistics, as an agent would send them (opaque to the stores). */
let stats: EncodedStats
beforeAll(async () => {
  await initHdr()
  const acc = new StatsAccumulator()
  acc.add(1234, -1, 200, 2, 0, -1, -1)
  stats = encodeStats(acc)
  acc.destroy()
})

describe.each(kinds)('the %s store', (kind, make) => {
  const skip = kind === 'postgres' && !pgOk

  it.skipIf(skip)(
    'lets an index join once: of two racing agents one joins, a restarted one is refused',
    async () => {
      const { coordinator, agent } = make()
      const s = spec(2)
      await coordinator.open(s)
      const racers = [agent(), agent()]
      const joins = await Promise.allSettled(racers.map((a) => a.join(hello(s, 1))))
      expect(joins.filter((j) => j.status === 'fulfilled')).toHaveLength(1)
      const refused = joins.find((j) => j.status === 'rejected')!.reason as Error
      expect(refused).toBeInstanceOf(AgentRefused)
      expect(refused.message).toMatch(
        /agent index 1 already joined run [0-9a-f]{16} \(host host-1, pid 1001\); an index joins a run once/,
      )
      const joined = joins.find((j): j is PromiseFulfilledResult<RunSpec> => j.status === 'fulfilled')!
      expect(joined.value.correlationPrefix).toBe('abcd1234')
      // A restart of the same index later: refused too.
      await expect(agent().join(hello(s, 1))).rejects.toThrow(/already joined/)
      // Wrong count, index out of range, unknown run: refused, saying which.
      await expect(agent().join(hello(s, 0, 3))).rejects.toThrow(/started for 3 agents, but run .* has 2/)
      await expect(agent().join(hello(s, 2))).rejects.toThrow(/agent index 2 is outside 0…1/)
      await expect(agent().join({ ...hello(s, 0), runKey: 'ffffffffffffffff' })).rejects.toThrow(AgentRefused)
      expect((await coordinator.agents()).map((a) => [a.index, a.host])).toEqual([[1, 'host-1']])
      await coordinator.close({ purge: true })
    },
  )

  it.skipIf(skip)(
    'holds agents at a barrier until the release, which every agent reads the same',
    async () => {
      const { coordinator, a } = await joinedRun(make, 2)
      await a[0]!.ready(0)
      let released = 0
      const waits = a.map((x) =>
        x.release(0).then((r) => {
          released++
          return r
        }),
      )
      await coordinator.wait(100)
      expect(released).toBe(0)
      expect((await coordinator.agents()).map((x) => x.readySegment)).toEqual([0, -1])
      await a[1]!.ready(0)
      const at = (await coordinator.now()) + 500
      await coordinator.release({ segment: 0, atMs: at, startSecond: 0 })
      const got = await Promise.all(waits)
      expect(got).toEqual([
        { segment: 0, atMs: at, startSecond: 0 },
        { segment: 0, atMs: at, startSecond: 0 },
      ])
      // A stop reaches heartbeats and the next barrier.
      expect(await a[0]!.heartbeat()).toEqual({ stop: false })
      await coordinator.stop()
      expect(await a[0]!.heartbeat()).toEqual({ stop: true })
      expect(await a[1]!.release(1)).toBeNull()
      await coordinator.close({ purge: true })
      for (const x of a) await x.close()
    },
  )

  it.skipIf(skip)(
    'hands each row to the coordinator once, in its agent order, and keeps them all',
    async () => {
      const { coordinator, a } = await joinedRun(make, 2)
      await a[0]!.clock({ offsetMs: 12.5, delayMs: 0.4 })
      await a[1]!.started({ segment: 0, atMs: 1234.5 })
      const second = (t: number, segment = 0) => ({
        segment,
        t,
        phase: 0,
        connections: 1,
        generatorCpu: 10,
        stats,
      })
      for (let t = 0; t < 3; t++) for (const x of a) await x.second(second(t))
      const first = await coordinator.take()
      expect(first.seconds.map((r) => [r.index, r.second.t]).sort()).toEqual(
        [0, 1].flatMap((i) => [0, 1, 2].map((t) => [i, t])).sort(),
      )
      for (const i of [0, 1])
        expect(first.seconds.filter((r) => r.index === i).map((r) => r.second.t)).toEqual([0, 1, 2])
      await a[1]!.second(second(3))
      await a[1]!.second(second(0, 1))
      expect((await coordinator.take()).seconds.map((r) => [r.index, r.second.segment, r.second.t])).toEqual([
        [1, 0, 3],
        [1, 1, 0],
      ])
      expect((await coordinator.take()).seconds).toEqual([])
      expect(await coordinator.allSeconds(0)).toHaveLength(7)
      expect((await coordinator.allSeconds(0))[0]!.second.stats).toEqual(stats)
      // A second sent again (its window's last ms folded in) replaces the first, never adds to it.
      await a[1]!.second({ ...second(3), connections: 9 })
      const again = await coordinator.allSeconds(0)
      expect(again).toHaveLength(7)
      expect(again.find((r) => r.index === 1 && r.second.t === 3)!.second.connections).toBe(9)
      await a[0]!.upload({ targetIndex: 0, round: 1, count: 3, data: new Uint8Array([1, 2, 3]) })
      expect(
        (await coordinator.takeBlocks()).map((b) => [b.index, b.block.count, [...b.block.data]]),
      ).toEqual([[0, 3, [1, 2, 3]]])
      await a[0]!.finish({ state: 'done', error: null, generatorCpu: [5, 6], rows: 3 })
      const rows = await coordinator.agents()
      expect(rows[0]!.clock).toEqual({ offsetMs: 12.5, delayMs: 0.4 })
      expect(rows[0]!.end).toEqual({ state: 'done', error: null, generatorCpu: [5, 6], rows: 3 })
      expect(rows[0]!.state).toBe('done')
      expect(rows[1]!.starts).toEqual({ 0: 1234.5 })
      expect(rows[1]!.heartbeatAgeMs).toBeGreaterThanOrEqual(0)
      await coordinator.close({ purge: true })
      for (const x of a) await x.close()
    },
  )
})
