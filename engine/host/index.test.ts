// The Api as every transport sees it: validate and preview for the wizard, start → progress →
// ended, history, exports, and errors that keep their code.
import { existsSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors.ts'
import type { ProgressEvent, RunEndedEvent } from '../api/types.ts'
import { createEngine, type EngineHost } from './index.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import { tempDbPath } from '../testing/run-config.ts'

let host: EngineHost
let target: CountingTarget
beforeAll(async () => {
  host = await createEngine({ dbPath: tempDbPath() })
  target = await startTarget()
})
afterAll(async () => {
  await host.close()
  await target.close()
})

const config = (url: string) => ({
  version: 1,
  name: 'api run',
  targets: [{ name: 'local', url }],
  load: { connections: 2, duration: 2 },
  cooldownSeconds: 0,
})

describe('engine host', () => {
  it('validates a config field by field, for inline form errors', async () => {
    const bad = await host.runs.validate({
      ...config('http://127.0.0.1:1/'),
      load: { connections: 0, duration: 1 },
    })
    expect(bad.ok).toBe(false)
    expect(bad.issues[0]).toEqual({ field: 'load.connections', message: 'must be greater than 0' })
    const good = await host.runs.validate(config('http://127.0.0.1:1/'))
    expect(good.ok).toBe(true)
    expect(good.config?.load.keepAlive).toBe(true)
  })

  it('starts a run, streams progress at 1 Hz, ends once, and keeps it in history', async () => {
    const progress: ProgressEvent[] = []
    const ended: RunEndedEvent[] = []
    const off1 = host.runs.onProgress((e) => progress.push(e))
    const ended1 = new Promise<void>((resolve) => {
      const off = host.runs.onEnded((e) => {
        ended.push(e)
        off()
        resolve()
      })
    })
    const { runId } = await host.runs.start(config(`${target.url}/x`))
    expect(await host.runs.active()).toEqual([runId])
    await ended1
    off1()
    expect(ended).toEqual([{ type: 'ended', runId, status: 'done', error: null }])
    expect(progress.map((p) => p.point.t)).toEqual([0, 1])
    expect(await host.runs.active()).toEqual([])
    const list = await host.runs.list()
    expect(list.items.map((i) => i.runId)).toContain(runId)
    const run = await host.runs.get(runId)
    expect(run.results[0]!.requests).toBeGreaterThan(0)
    const series = await host.runs.series(runId)
    expect(series.length).toBe(2)
    const slowest = await host.runs.samples(runId, { order: 'slowest', limit: 3 })
    expect(slowest.rows.length).toBe(3)
    expect(slowest.rows[0]!.latencyUs).toBeGreaterThanOrEqual(slowest.rows[2]!.latencyUs ?? 0)
    const byId = await host.runs.samples(runId, { correlationId: slowest.rows[0]!.correlationId })
    expect(byId.rows[0]!.seq).toBe(slowest.rows[0]!.seq)
    const csv = await host.exports.csv(runId, { kind: 'samples' })
    expect(existsSync(csv.path!)).toBe(true)
    expect(readFileSync(csv.path!, 'utf8').split('\n').length).toBeGreaterThan(run.results[0]!.requests)
    await host.runs.delete(runId)
    await expect(host.runs.get(runId)).rejects.toMatchObject({ code: 'not-found' })
  })

  it('starts a sweep as a study: one run per value, listed together, with its results', async () => {
    const ended: number[] = []
    const done = new Promise<void>((resolve) => {
      const off = host.runs.onEnded((e) => {
        ended.push(e.runId)
        if (ended.length === 2) {
          off()
          resolve()
        }
      })
    })
    const started = await host.runs.start({
      ...config(`${target.url}/x`),
      load: { connections: 1, duration: 1 },
      sweep: { path: 'load.connections', values: [1, 2] },
    })
    expect(started.studyId).toBeGreaterThan(0)
    await done
    expect(ended[0]).toBe(started.runId)
    const studies = await host.studies.list()
    expect(studies.find((s) => s.studyId === started.studyId)?.runIds.sort()).toEqual([...ended].sort())
    const results = await host.studies.get(started.studyId!)
    expect(results.targets[0]!.points.map((p) => p.value)).toEqual([1, 2])
    await expect(
      host.runs.start({ ...config(`${target.url}/x`), sweep: { path: 'load.nothing', values: [1] } }),
    ).rejects.toMatchObject({ code: 'bad-input', field: 'sweep.path' })
  })

  it('a config naming a stack that is not running here, but answering at its URL, is measured as it is', async () => {
    // The stack is not this data folder's (started by hand, or by another folder): nothing is started.
    const lines: string[] = []
    const off = host.stacks.onLog((e) => lines.push(`${e.stack}: ${e.line}`))
    const ended = new Promise<RunEndedEvent>((resolve) => {
      const offEnded = host.runs.onEnded((e) => {
        offEnded()
        resolve(e)
      })
    })
    const { runId } = await host.runs.start({
      ...config(`${target.url}/x`),
      targets: [{ name: 'local', url: `${target.url}/x`, stack: { name: 'node-http' } }],
      load: { connections: 1, duration: 1 },
    })
    expect((await ended).status).toBe('done')
    off()
    expect(lines).toEqual([])
    // No warm-up was added: no stack was started for it.
    expect((await host.runs.get(runId)).results[0]!.phases.map((p) => p.phase)).toEqual(['main'])
  })

  it('refuses bad input with a code and the field', async () => {
    await expect(host.runs.start({ ...config('http://127.0.0.1:9/x') })).rejects.toMatchObject({
      code: 'bad-input',
      field: 'targets.0.url',
    })
    await expect(host.runs.stop(424242)).rejects.toBeInstanceOf(ApiError)
  })

  it('refuses malformed stack options with bad-input before touching anything', async () => {
    await expect(host.stacks.up('node-http', { replicas: 0 })).rejects.toMatchObject({ code: 'bad-input' })
    await expect(host.stacks.up('node-http', { replicas: 99 })).rejects.toMatchObject({ code: 'bad-input' })
    await expect(
      host.stacks.down('node-http', { volumes: 'yes' } as unknown as { volumes: boolean }),
    ).rejects.toMatchObject({ code: 'bad-input' })
  })
})
