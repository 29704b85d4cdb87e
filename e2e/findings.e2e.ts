// What a run found beside its figures, on its page, in the engine's own words: the warm-up
// load.warmup: auto found in each segment (one target quick from its first request, one whose
// latency climbs and never settles) with each cut marked on the charts, what limited each target;
// and a study's capacity at its latency target on the study page.
import { describe, expect, it } from 'vitest'
import { steadyText } from '../engine/metrics/steady-words.ts'
import { startTarget } from '../engine/testing/target.ts'
import { RunDetailPage, StudyPage } from './pages/pages.ts'
import { appPerTest } from './support/app.ts'
import { demoBase, runAndWait } from './support/runs.ts'

const { start } = appPerTest()

describe('findings on the run page and the study page', () => {
  it('shows each warm-up found, the segment that never settled, and what limited each target', async () => {
    const app = await start()
    const quick = await startTarget({ delayMs: 50 })
    const drifting = await startTarget({ delayAt: (ms) => 50 + ms / 100 })
    try {
      const ended = await runAndWait(app, {
        version: 1,
        name: 'e2e: warm-up found',
        targets: [
          { name: 'quick', url: `${quick.url}/q` },
          { name: 'drifting', url: `${drifting.url}/d` },
        ],
        load: { connections: 40, duration: 12, rate: 100, warmup: 'auto' },
        cooldownSeconds: 0,
      })
      expect(ended.status).toBe('done')
      const run = await app.engine.runs.get(ended.runId)
      await app.open(`#/runs/${ended.runId}`)
      const detail = new RunDetailPage(app.page)
      await detail.root.waitFor()
      for (const r of run.results) {
        const line = detail.steady(r.target, r.round)
        expect(await line.textContent()).toBe(`${r.target} round ${r.round}: ${steadyText(r.steady!)}`)
        expect(await line.getAttribute('data-settled')).toBe(String(r.steady!.settled))
      }
      expect(run.results.find((r) => r.target === 'drifting')?.steady?.settled).toBe(false)
      for (const l of run.limitedBy) {
        expect(await detail.limit(l.target).getAttribute('data-kind')).toBe(l.kind)
        expect(await detail.limit(l.target).textContent()).toContain(l.text)
      }
      // The cuts on the latency chart: where each target's measured window starts.
      const chart = detail.chart('latency').root
      await chart
        .locator('text', { hasText: 'drifting: never settled' })
        .first()
        .waitFor({ state: 'attached' })
      await chart
        .locator('text', { hasText: 'quick: steady from here' })
        .first()
        .waitFor({ state: 'attached' })
      await app.screenshot('40-findings')
    } finally {
      await Promise.all([quick.close(), drifting.close()])
    }
  })

  it('shows a study’s capacity at its latency target, as the engine reads it', async () => {
    const app = await start()
    const demo = await demoBase(app)
    const ended = await runAndWait(app, {
      version: 1,
      name: 'e2e: capacity',
      targets: [{ name: 'demo', url: `${demo}/ads?limit=20` }],
      load: { connections: 1, duration: 1 },
      cooldownSeconds: 0,
      sweep: { path: 'load.connections', values: [1, 2], slo: { p99: 2000 } },
    })
    const studies = await app.engine.studies.list()
    const study = studies.find((s) => s.runIds.includes(ended.runId))!
    // The sweep goes on after its first run: wait for the study's second run to end too.
    await expect
      .poll(async () => (await app.engine.studies.get(study.studyId)).targets[0]?.points.length, {
        timeout: 60_000,
      })
      .toBe(2)
    const results = await app.engine.studies.get(study.studyId)
    const capacity = results.targets[0]!.capacity!
    await app.open(`#/studies/${study.studyId}`)
    const page = new StudyPage(app.page)
    await page.waitForPoints(0, 2)
    expect(await page.capacity(0).textContent()).toBe(`Capacity at the latency target: ${capacity.sentence}`)
    await page.capacityBadge(capacity.runId).waitFor()
    expect(await page.capacityRule.textContent()).toContain(results.capacityRule!)
  })
})
