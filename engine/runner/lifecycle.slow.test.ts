// The run lifecycle: start → progress (1 Hz) → done | aborted | failed; a killed runner
// leaves an aborted run with its samples; stop is graceful. And an unreachable target mid-run.
import { afterEach, describe, expect, it } from 'vitest'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import { ledgerIds, runConfig } from '../testing/run-config.ts'

let target: CountingTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

const cfg = (url: string, duration: number) => ({
  version: 1,
  name: 'lifecycle',
  targets: [{ name: 't', url: `${url}/x` }],
  load: { connections: 4, duration },
  cooldownSeconds: 0,
})

describe('run lifecycle', () => {
  it('reports progress once per second and ends done', async () => {
    target = await startTarget({ delayMs: 1 })
    const ended: string[] = []
    const { summary, progress } = await runConfig(cfg(target.url, 3), undefined, {
      onEnded: (e) => ended.push(e.status),
    })
    expect(summary.status).toBe('done')
    expect(ended).toEqual(['done'])
    expect(progress.map((p) => p.point.t)).toEqual([0, 1, 2])
    expect(progress.every((p) => p.totalSeconds === 3)).toBe(true)
    expect(progress.at(-1)!.totals.requests).toBeGreaterThan(0)
  })

  it('a killed runner leaves the run aborted with every sample of its completed seconds', async () => {
    target = await startTarget({ delayMs: 1 })
    const { summary, db } = await runConfig(cfg(target.url, 20), (handle, progress) => {
      const wait = setInterval(() => {
        if (progress.length >= 2) {
          clearInterval(wait)
          handle.kill('SIGKILL')
        }
      }, 20)
    })
    expect(summary.status).toBe('aborted')
    expect(summary.error).toMatch(/SIGKILL/)
    const series = db
      .prepare('SELECT t, requests, errors FROM series WHERE run_id = ? ORDER BY t')
      .all(summary.runId) as {
      t: number
      requests: number
    }[]
    expect(series.length).toBeGreaterThanOrEqual(2)
    const inSeries = series.reduce((a, s) => a + s.requests, 0)
    const stored = db
      .prepare('SELECT count(*) FROM samples WHERE run_id = ?')
      .pluck()
      .get(summary.runId) as number
    expect(stored).toBeGreaterThanOrEqual(inSeries)
    // Nothing stored that the server did not see; what was lost is at most the unflushed tail.
    const seen = new Set(target.ids)
    for (const id of ledgerIds(db, summary.runId, summary.correlationPrefix)) expect(seen.has(id)).toBe(true)
    // The unfinished segment still has a summary, computed from its stored samples.
    expect(summary.results[0]!.requests).toBe(stored - (summary.results[0]!.errors.inflight ?? 0))
  })

  it('a runner that stops answering (SIGSTOP) is killed by the watchdog: aborted, samples kept', async () => {
    target = await startTarget({ delayMs: 1 })
    let stopped = -1
    const { summary, db } = await runConfig(
      cfg(target.url, 30),
      (handle, progress) => {
        const wait = setInterval(() => {
          if (progress.length < 2) return
          clearInterval(wait)
          stopped = handle.pid
          process.kill(handle.pid, 'SIGSTOP')
        }, 20)
      },
      {},
      undefined,
      { silenceMs: 4000 },
    )
    expect(stopped).toBeGreaterThan(0)
    expect(summary.status).toBe('aborted')
    expect(summary.error).toBe('the runner process did not answer for 4 s and was killed')
    const stored = db
      .prepare('SELECT count(*) FROM samples WHERE run_id = ?')
      .pluck()
      .get(summary.runId) as number
    expect(stored).toBeGreaterThan(0)
    expect(summary.results[0]!.requests + (summary.results[0]!.errors.inflight ?? 0)).toBe(stored)
  })

  it('stop is graceful: the run ends when asked, aborted, with every request accounted for', async () => {
    target = await startTarget({ delayMs: 1 })
    let asked = -1
    const { summary, db, progress } = await runConfig(cfg(target.url, 30), (handle, progress) => {
      const wait = setInterval(() => {
        if (progress.length >= 1) {
          clearInterval(wait)
          asked = progress.length
          handle.stop()
        }
      }, 20)
    })
    expect(summary.status).toBe('aborted')
    expect(summary.error).toMatch(/stopped/)
    // Ended when asked, not at its window's end: no second measured after the one the stop reached
    // the runner in (the second in progress when it was asked, or the next on a busy machine).
    expect(asked).toBeGreaterThan(0)
    expect(progress.length).toBeLessThanOrEqual(asked + 2)
    const seconds = db.prepare('SELECT count(*) FROM series WHERE run_id = ?').pluck().get(summary.runId)
    expect(seconds).toBeLessThanOrEqual(asked + 2)
    expect([...target.ids].sort()).toEqual(ledgerIds(db, summary.runId, summary.correlationPrefix).sort())
    expect(summary.results[0]!.latency.count).toBeGreaterThan(0)
  })

  it('a target that goes away mid-run: errors counted by kind, the run ends on time', async () => {
    target = await startTarget({ delayMs: 1 })
    const t = target
    const { summary, progress } = await runConfig(cfg(target.url, 3), (_h, progress) => {
      const wait = setInterval(() => {
        if (progress.length >= 1) {
          clearInterval(wait)
          void t.close()
        }
      }, 20)
    })
    expect(summary.status).toBe('done')
    // On time: its 3 s window, one progress a second, and not one second more waiting on the
    // connections the target dropped.
    expect(progress.map((p) => p.point.t)).toEqual([0, 1, 2])
    const r = summary.results[0]!
    expect(r.ok).toBeGreaterThan(0)
    expect((r.errors.refused ?? 0) + (r.errors.reset ?? 0)).toBeGreaterThan(0)
  })
})
