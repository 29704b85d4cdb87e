// The sweep workaround against the real engine and its demo target: one run per value, recorded
// as a study that studies.list/get find; refusals name sweep.path.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../api.ts'
import { createEngine, type EngineHost } from '../host.ts'
import type { RunEndedEvent } from '../types.ts'
import { withSweeps, type SweepingApi } from './sweeps.ts'

describe('sweeps through the Api', () => {
  let dir: string
  let engine: EngineHost
  let sweeping: SweepingApi
  let url: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cannonade-sweep-'))
    engine = await createEngine({ dbPath: join(dir, 'c.db'), demo: true })
    sweeping = withSweeps(engine)
    url = `${await engine.demoUrl()}/ads?limit=5`
  })
  afterAll(async () => {
    sweeping.close()
    await engine.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const config = (sweep: unknown, extra: Record<string, unknown> = {}) => ({
    version: 1,
    name: 'sweep test',
    targets: [{ name: 'demo', url, ...extra }],
    load: { connections: 1, duration: 1 },
    cooldownSeconds: 0,
    sweep,
  })

  it('runs one run per value and lists them as one study', async () => {
    const ended: RunEndedEvent[] = []
    const two = new Promise<void>((resolve) =>
      engine.runs.onEnded((e) => {
        ended.push(e)
        if (ended.length === 2) resolve()
      }),
    )
    const { runId } = await sweeping.api.runs.start(config({ path: 'load.connections', values: [1, 2] }))
    await two
    expect(ended.map((e) => e.status)).toEqual(['done', 'done'])
    const [study] = await sweeping.api.studies.list()
    expect(study?.runIds.sort()).toEqual([runId, runId + 1])
    const results = await sweeping.api.studies.get(study!.studyId)
    expect(results.targets[0]?.points.map((p) => p.value)).toEqual([1, 2])
    const second = await engine.runs.get(runId + 1)
    expect(second.config.load.connections).toBe(2)
  }, 30_000)

  it('names sweep.path when it cannot run the sweep', async () => {
    const bad = await sweeping.api.runs
      .start(config({ path: 'load.nothing', values: [1] }))
      .catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(ApiError)
    expect((bad as ApiError).field).toBe('sweep.path')
    const stack = await sweeping.api.runs
      .start(
        config({ path: 'targets.0.stack.env.POOL_SIZE', values: [1, 2] }, { stack: { name: 'node-http' } }),
      )
      .catch((e: unknown) => e)
    expect((stack as ApiError).field).toBe('sweep.path')
    expect((stack as ApiError).message).toContain('command line')
  })
})
