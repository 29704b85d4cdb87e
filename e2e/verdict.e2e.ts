// Rounds until precise in the app (issue 27, items 1–3): the live view says where the rounds stand
// ("round 2 of at most 4: …, goal ±…"), the run page says how many rounds ran and why they
// stopped, the order each round ran in and its seed, and what shared the machine each round; the
// Compare page says the same of the run; every sentence the Api's, so the CLI reads the same.
import { describe, expect, it } from 'vitest'
import type { RunEndedEvent } from '../engine/api/types.ts'
import { ComparePage, LivePage, RunDetailPage } from './pages/pages.ts'
import { appPerTest } from './support/app.ts'
import { demoBase } from './support/runs.ts'

const { start } = appPerTest()

describe('rounds until precise, on every screen', () => {
  it('the live rounds line, the run page’s Rounds card, the Compare page’s rounds line', async () => {
    const app = await start()
    const { page, engine } = app
    const demo = await demoBase(app)
    const live = new LivePage(page)
    const detail = new RunDetailPage(page)
    const compare = new ComparePage(page)
    let runId = -1
    const ended = new Promise<RunEndedEvent>((resolve) => {
      const off = engine.runs.onEnded((e) => {
        if (e.runId !== runId) return
        off()
        resolve(e)
      })
    })
    runId = (
      await engine.runs.start({
        version: 1,
        name: 'e2e: rounds until precise',
        targets: [
          { name: 'sleep-2ms', url: `${demo}/slow?ms=2` },
          { name: 'sleep-3ms', url: `${demo}/slow?ms=3` },
        ],
        load: { connections: 2, duration: 1 },
        rounds: { min: 3, max: 4, precision: 0.5 },
        cooldownSeconds: 0,
      })
    ).runId
    await app.open(`#/live/${runId}`)
    // While it runs: where its rounds stand, after each full round.
    await expect
      .poll(() => live.rounds.textContent(), { timeout: 60_000 })
      .toMatch(
        /^round [1-4] of at most 4: sleep-3ms\/sleep-2ms |^round [1-4] of at most 4: (p50|p99|throughput) /,
      )
    expect((await ended).status).toBe('done')
    const run = await engine.runs.get(runId)
    expect(run.config.schedule).toBe('randomized')
    expect(run.rounds.reason).toMatch(/^(precise|decided|max)$/)
    // Once ended, the live view says how many rounds ran and why they stopped.
    await expect.poll(() => live.rounds.textContent()).toBe(run.rounds.stop)

    await app.open(`#/runs/${runId}`)
    await expect.poll(() => detail.roundsStop.textContent()).toBe(`${run.rounds.stop}.`)
    const order = (await detail.roundsOrder.textContent()) ?? ''
    expect(order).toBe(
      `Randomized order (seed ${run.config.scheduleSeed}): ${run.rounds.orders
        .map((o) => `round ${o.round}: ${o.targets.join(' → ')}`)
        .join(' · ')}`,
    )
    // What shared the machine, a row per target and round, disturbed rounds marked.
    await detail.openNoise()
    const rows = detail.noiseRows
    await expect.poll(() => rows.count()).toBe(run.results.length)
    const disturbed = run.results.filter((r) => r.noise?.disturbed).length
    expect(await detail.disturbedNoiseRows.count()).toBe(disturbed)
    if (run.rounds.noise) expect(await detail.roundsNoise.textContent()).toBe(`${run.rounds.noise}.`)
    await app.screenshot('40-run-rounds')

    await app.open(`#/compare?runs=${runId}`)
    const compared = await engine.runs.compare({ runIds: [runId] })
    expect(compared.rounds).toEqual([{ runId, words: expect.stringContaining(run.rounds.stop) }])
    await expect.poll(() => compare.rounds.textContent()).toBe(compared.rounds[0]!.words)
    await expect.poll(() => compare.headline.textContent()).toBe(compared.headline)
    await app.screenshot('41-compare-rounds')
  })
})
