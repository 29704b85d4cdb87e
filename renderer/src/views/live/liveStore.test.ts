import { describe, expect, it, vi } from 'vitest'
import type { AgentLive, ProgressEvent, RunWarning } from '#engine/api/types.ts'
import { testPoint } from '#engine/testing/series-point.ts'
import { LIVE_CAPACITY, LiveStore, mergeWarnings } from './liveStore.ts'

function progress(runId: number, t: number, target = 'a'): ProgressEvent {
  const point = testPoint(target, t, { connections: 1, requests: 10 })
  return {
    type: 'progress',
    runId,
    elapsedSeconds: t + 1,
    totalSeconds: null,
    target,
    round: 1,
    phase: 'main',
    point,
    totals: { requests: 10 * (t + 1), errors: 0 },
    generatorSaturated: false,
    resources: [],
  }
}

describe('LiveStore', () => {
  it('bounds every series and notifies once per burst', () => {
    vi.useFakeTimers()
    const store = new LiveStore()
    const cb = vi.fn()
    store.subscribe(cb)
    for (let t = 0; t < LIVE_CAPACITY + 500; t++) store.ingest(progress(1, t))
    expect(cb).not.toHaveBeenCalled()
    vi.advanceTimersByTime(300)
    expect(cb).toHaveBeenCalledTimes(1)
    const ring = [...(store.get(1)?.series.values() ?? [])][0]
    expect(ring?.size).toBe(LIVE_CAPACITY)
    expect(ring?.toArray()[0]?.t).toBe(500)
    vi.useRealTimers()
  })

  it('merges a stored backfill under live points and ends a run', () => {
    const store = new LiveStore()
    store.ingest(progress(2, 5))
    store.backfill(2, [
      progress(2, 3).point,
      progress(2, 4).point,
      { ...progress(2, 5).point, requests: 999 },
    ])
    const points = [...(store.get(2)?.series.values() ?? [])][0]?.toArray() ?? []
    expect(points.map((p) => p.t)).toEqual([3, 4, 5])
    expect(points[2]?.requests).toBe(10)
    expect(store.running()).toEqual([2])
    store.end({ type: 'ended', runId: 2, status: 'done', error: null })
    expect(store.running()).toEqual([])
  })

  it('keeps only a few runs', () => {
    const store = new LiveStore()
    for (let run = 1; run <= 6; run++) store.ingest(progress(run, 0))
    expect(store.get(1)).toBeUndefined()
    expect(store.get(6)).toBeDefined()
  })
})

describe('LiveStore resources', () => {
  it('keeps the CPU and memory samples of progress events, bounded per series', () => {
    const store = new LiveStore()
    for (let t = 0; t < LIVE_CAPACITY + 100; t++) {
      store.ingest({
        ...progress(7, t),
        resources: [
          {
            t,
            target: 'a',
            source: 'docker',
            instance: 'c1',
            cpuPercent: 50,
            memoryBytes: 1e6,
            connections: null,
          },
          {
            t: t + 0.5,
            target: 'generator',
            source: 'generator',
            instance: '1',
            cpuPercent: 20,
            memoryBytes: 2e6,
            connections: null,
          },
        ],
      })
    }
    const rings = [...(store.get(7)?.resources.values() ?? [])]
    expect(rings).toHaveLength(2)
    for (const ring of rings) expect(ring.size).toBe(LIVE_CAPACITY)
    expect(rings[0]?.toArray()[0]?.t).toBe(100)
  })

  it('backfills stored samples under live ones', () => {
    const store = new LiveStore()
    const live = {
      t: 3,
      target: 'a',
      source: 'process',
      instance: '9',
      cpuPercent: 10,
      memoryBytes: 1,
      connections: null,
    }
    store.ingest({ ...progress(8, 3), resources: [live] })
    store.backfillResources(8, [
      { ...live, t: 1 },
      { ...live, t: 2 },
      { ...live, cpuPercent: 99 },
    ])
    const points = [...(store.get(8)?.resources.values() ?? [])][0]?.toArray() ?? []
    expect(points.map((p) => p.t)).toEqual([1, 2, 3])
    expect(points[2]?.cpuPercent).toBe(10)
  })

  it("keeps the agents: waiting ones, then each second's figures, and states from agents events", () => {
    const store = new LiveStore()
    const agent = (index: number, state: AgentLive['state'], requests = 0): AgentLive => ({
      index,
      host: 'h',
      pid: 10 + index,
      state,
      offsetMs: 0.5,
      requests,
      generatorCpu: requests ? 30 : null,
      heartbeatAgeMs: 100,
    })
    store.ingestAgents({ type: 'agents', runId: 3, agents: [agent(0, 'joined')], waiting: [1] })
    expect(store.get(3)?.agents).toEqual({ joined: [agent(0, 'joined')], waiting: [1] })
    // A second of load: both joined, each with its requests; nobody waits any more.
    store.ingest({ ...progress(3, 0), agents: [agent(0, 'running', 7), agent(1, 'running', 5)] })
    expect(store.get(3)?.agents?.waiting).toEqual([])
    // A state change keeps the last second's figures (the event has none of its own).
    store.ingestAgents({
      type: 'agents',
      runId: 3,
      agents: [agent(0, 'done'), agent(1, 'running')],
      waiting: [],
    })
    expect(store.get(3)?.agents?.joined.map((a) => [a.state, a.requests, a.generatorCpu])).toEqual([
      ['done', 7, 30],
      ['running', 5, 30],
    ])
  })
})

describe('LiveStore warnings', () => {
  const warning = (field: string, message: string, at: string, count = 1): RunWarning => ({
    kind: 'monitor',
    field,
    target: 'api',
    source: 'docker',
    message,
    stopped: true,
    at,
    t: 0,
    count,
  })

  it('keeps each warning told live once, in the order they came, and tells the view at once', () => {
    const store = new LiveStore()
    const cb = vi.fn()
    store.subscribe(cb)
    const a = warning('targets.0.monitor', 'container x: no such container', '2025-01-01T00:00:01.000Z')
    const b = warning('targets.1.monitor', 'Docker engine not reachable', '2025-01-01T00:00:00.500Z')
    store.warn({ type: 'warning', runId: 7, warning: a })
    store.warn({ type: 'warning', runId: 7, warning: b })
    store.warn({ type: 'warning', runId: 7, warning: a })
    expect(cb).toHaveBeenCalledTimes(3)
    expect(store.get(7)?.warnings).toEqual([b, a])
  })

  it('merges stored and live warnings by monitor and message, the stored one winning', () => {
    const live = warning('targets.0.monitor', 'stats stream of x: reset', '2025-01-01T00:00:02.000Z')
    const stored = { ...live, count: 4 }
    const other = warning('targets.0.monitor.1', 'password authentication failed', '2025-01-01T00:00:00.000Z')
    expect(mergeWarnings([stored, other], [live])).toEqual([other, stored])
    expect(mergeWarnings([], [live])).toEqual([live])
    // Read before the run's start was known: the place on the timeline comes from the live copy.
    expect(mergeWarnings([{ ...live, t: null }], [{ ...live, t: 0.2 }])).toEqual([{ ...live, t: 0.2 }])
  })
})
