// The live view through a long run, sped up: a real run is started (lightly loaded), its own
// progress events are held back, and 90 minutes of per-second snapshots (two targets one after
// the other, 30 minutes each, then the first again) are pushed through the real WebSocket at
// high speed. Records the renderer's heap after
// garbage collection; no timed assertion, the figures are printed for the report.
import type { CDPSession } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { ProgressEvent, SeriesPoint } from '../engine/api/types.ts'
import { LivePage } from './pages/pages.ts'
import { appPerTest } from './support/app.ts'

const { start } = appPerTest()

const TARGETS = ['node-http', 'java-jetty']
const TOTAL = 1800

function phaseAt(t: number): string {
  const s = t % TOTAL
  return s < 300 ? 'warmup' : s < 1500 ? 'load' : 'peak'
}

function event(
  runId: number,
  target: string,
  t: number,
  totals: { requests: number; errors: number },
): ProgressEvent {
  const requests = 9000 + Math.round(2000 * Math.sin(t / 60)) + (target === 'java-jetty' ? 1500 : 0)
  const errors = t % 97 === 0 ? 12 : 0
  totals.requests += requests
  totals.errors += errors
  const point: SeriesPoint = {
    target,
    round: 1,
    t,
    phase: phaseAt(t),
    connections: phaseAt(t) === 'warmup' ? 8 : phaseAt(t) === 'load' ? 32 : 64,
    requests,
    responses: requests - errors / 2,
    errors,
    errorsByKind: errors ? { timeout: errors / 2, status: errors / 2 } : {},
    bytes: requests * 2048,
    mean: 3000 + (t % 50) * 10,
    p50: 2500,
    p90: 5200,
    p95: 6100 + (t % 30) * 20,
    p99: 9800 + (t % 60) * 50,
    p999: 20000,
    max: 45000,
    generatorCpu: 40,
  }
  return {
    type: 'progress',
    runId,
    elapsedSeconds: t + 1,
    totalSeconds: TOTAL * 3,
    target,
    round: 1,
    phase: point.phase,
    point,
    totals: { ...totals },
    generatorSaturated: false,
    resources: [],
  }
}

async function heapMb(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage')
  const { usedSize } = await cdp.send('Runtime.getHeapUsage')
  return usedSize / (1024 * 1024)
}

describe('live view memory', () => {
  it('keeps the renderer heap bounded through a replayed 90-minute run', async () => {
    let replaying = false
    const inject = new Set<(e: ProgressEvent) => void>()
    const app = await start({
      wrap: (engine) => ({
        ...engine,
        runs: {
          ...engine.runs,
          onProgress(cb) {
            inject.add(cb)
            // While replaying, the real run's own events are held back so the stream is the replay's.
            const off = engine.runs.onProgress((e) => {
              if (!replaying) cb(e)
            })
            return () => {
              inject.delete(cb)
              off()
            }
          },
        },
      }),
    })
    const { page, engine } = app
    const { demoUrl } = (await engine.settings.get()) as { demoUrl?: string }
    const url = `${demoUrl ?? ''}/ads?limit=5`
    const { runId } = await engine.runs.start({
      version: 1,
      name: 'e2e: replayed long run',
      targets: TARGETS.map((name) => ({ name, url })),
      load: { connections: 1, duration: TOTAL, rate: 1 },
      cooldownSeconds: 0,
    })
    await app.open(`#/live/${runId}`)
    const live = new LivePage(page)
    await live.root.waitFor()
    const cdp = await page.context().newCDPSession(page)
    const before = await heapMb(cdp)

    replaying = true
    const totals = new Map(TARGETS.map((t) => [t, { requests: 0, errors: 0 }]))
    // One target at a time, 30 minutes each (the engine never loads two targets at once).
    const replay = async (from: number, to: number) => {
      for (let t = from; t < to; t++) {
        const target = TARGETS[Math.floor(t / TOTAL) % TARGETS.length] ?? 'node-http'
        const e = event(runId, target, t, totals.get(target) ?? { requests: 0, errors: 0 })
        for (const cb of inject) cb(e)
        // 60 simulated seconds per macrotask: a 30-minute run arrives in about a second.
        if (t % 60 === 59) await new Promise((r) => setTimeout(r, 5))
      }
    }
    const started = Date.now()
    await replay(0, TOTAL)
    await expect.poll(() => live.elapsed.textContent(), { timeout: 30_000 }).toBe('30:00 elapsed')
    const replaySeconds = (Date.now() - started) / 1000
    await live.chart('throughput').plot.waitFor()
    await app.screenshot('11-live-replayed-30min')
    const after30 = await heapMb(cdp)

    await replay(TOTAL, TOTAL * 2)
    await expect.poll(() => live.elapsed.textContent(), { timeout: 30_000 }).toBe('1:00:00 elapsed')
    const after60 = await heapMb(cdp)
    // A third half hour: every series is at its cap now, so memory must stay where it is.
    await replay(TOTAL * 2, TOTAL * 3)
    await expect.poll(() => live.elapsed.textContent(), { timeout: 30_000 }).toBe('1:30:00 elapsed')
    const after90 = await heapMb(cdp)
    await app.screenshot('12-live-replayed-90min')
    const points = await live.chart('throughput').pointsPerLine()
    replaying = false
    await engine.runs.stop(runId)

    console.log(
      [
        `renderer heap (after GC): ${before.toFixed(1)} MB before, ${after30.toFixed(1)} MB after 30 min, ${after60.toFixed(1)} MB after 60 min, ${after90.toFixed(1)} MB after 90 min (target < 200 MB)`,
        `replayed 30 min of 1 Hz snapshots in ${replaySeconds.toFixed(1)} s; points per throughput line at the end: ${points.join(', ')} (cap 1800 per target)`,
      ].join('\n'),
    )
    expect(Math.max(...points)).toBeLessThanOrEqual(1800)
  })
})
