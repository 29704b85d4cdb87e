// One figure per target over its rounds, on every screen, and the report that follows the
// comparison the page shows (issue 19 items 4, 5, 6): two targets whose service times the test
// sets (2 ms, 4 ms, and 6 ms with every 8th request a 503) × three interleaved rounds, open loop (a rate,
// so corrected latency and the schedule are kept), run by the real `cannonade` command. Each
// target's figure over its rounds (engine/metrics/over-rounds.ts) must read the same in the CLI's
// "all" row, `runs show --json`'s overRounds, the run page and Compare's "all" rows, and page 1 of
// the PDF the Compare page exports; that PDF compares against the baseline and margin the page
// shows and says so; the page's verdict words are the JSON's. Rate mode's corrected latency and
// schedule are rows of the run page, not a tooltip, and "in flight at end" reads 0, not "–".
// The Compare page and page 1 of its PDF are kept side by side in artifacts/screens
// (compare-rounds.png, compare-rounds-pdf-page-1.png; written there by `npm run docs:screens`).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RunSummary, TargetOverRounds } from '../engine/api/types.ts'
import { figuresOf } from '../engine/metrics/figures.ts'
import { msText, serverTimingInvalidText } from '../engine/metrics/units.ts'
import { verdictWord } from '../engine/metrics/compare-words.ts'
import { fmtInt, fmtMs, fmtRate } from '../engine/report/format.ts'
import { startTarget } from '../engine/testing/target.ts'
import { ComparePage, RunDetailPage } from './pages/pages.ts'
import { appPerTest, KEPT_SCREENS } from './support/app.ts'
import { cannonade, cliRow, firstNumber, pdfText } from './support/cli.ts'

const { start } = appPerTest()

/** The target over its rounds as every screen must print it. */
function expected(o: TargetOverRounds) {
  const f = figuresOf(o)
  return { f, l: o.latency }
}

describe('a target over its rounds, the same on every screen', () => {
  it('CLI, runs show --json, run detail, compare and the PDF the Compare page exports', async () => {
    const quick = await startTarget({ delayMs: 2 })
    // middle sends Server-Timing, its first 7 answers with a duration that is not one.
    const middle = await startTarget({ delayMs: 4, serverTiming: true, serverTimingInvalid: 7 })
    const slow = await startTarget({ delayMs: 6, failEvery: { every: 8, status: 503 } })
    const dataDir = mkdtempSync(join(tmpdir(), 'cannonade-rounds-'))
    const db = join(dataDir, 'cannonade.db')
    const config = join(dataDir, 'rounds.yaml')
    writeFileSync(
      config,
      `version: 1
name: rounds everywhere
targets:
  - { name: quick, url: "${quick.url}/x" }
  - { name: middle, url: "${middle.url}/x" }
  - { name: steady, url: "${slow.url}/x" }
load: { connections: 4, duration: 1, rate: 150 }
rounds: 3
schedule: interleaved
cooldownSeconds: 0
`,
    )
    const json = join(dataDir, 'summary.json')
    const ran = await cannonade(['run', config, '--db', db, '--json', json])
    await quick.close()
    await middle.close()
    await slow.close()
    expect(ran.code, ran.stderr).toBe(0)
    const app = await start({ dataDir })
    const runId = (await app.engine.runs.list({})).items[0]!.runId
    const run: RunSummary = await app.engine.runs.get(runId)
    expect(run.overRounds.map((o) => [o.target, o.rounds])).toEqual([
      ['quick', 3],
      ['middle', 3],
      ['steady', 3],
    ])
    const shown = JSON.parse(
      (await cannonade(['runs', 'show', String(runId), '--db', db, '--json'])).stdout,
    ) as {
      overRounds: {
        target: string
        requests: number
        throughput: number
        latency: { p50: number; p99: number }
      }[]
    }

    // 1. The CLI: an "all" row per target; rate mode's corrected latency as a row.
    for (const o of run.overRounds) {
      const { f, l } = expected(o)
      const row = cliRow(ran.stdout, o.target, 'all')
      expect(row.slice(3, 5)).toEqual([String(f.requests), f.throughput.toFixed(1)])
      expect([row[7], row[10]]).toEqual([msText(l.p50), msText(l.p99)])
      expect(row.slice(-2)).toEqual([String(f.failed), String(f.inflight)])
      expect(shown.overRounds.find((x) => x.target === o.target)).toMatchObject({
        requests: f.requests,
        throughput: Math.round(f.throughput * 100) / 100,
        latency: { p50: l.p50, p99: l.p99 },
      })
    }
    expect(ran.stdout).toMatch(/^ {2}↳ corrected \(from intended send\) /m)

    // 2. The run page: the same "all" rows; corrected latency and the schedule as rows.
    const { page } = app
    await app.open(`#/runs/${runId}`)
    const runPage = new RunDetailPage(page)
    const summary = runPage.summary
    const detail: Record<string, string[]> = {}
    for (const o of run.overRounds) {
      const { f, l } = expected(o)
      // Time, Requests, Throughput, Mean, Std dev, p50, p95, p99, p99.9, Max, Errors, In flight.
      const c = await summary.cells(`${o.target}-all`)
      detail[o.target] = c
      expect(firstNumber(c[1]!)).toBe(f.requests)
      expect([c[5], c[7]]).toEqual([`${msText(l.p50)} ms`, `${msText(l.p99)} ms`])
      expect(firstNumber(c[10]!)).toBe(f.failed)
      // In flight at end: a count, 0 when none (never "–").
      expect(c[11]).toBe(String(f.inflight))
      const corrected = await summary.cells(`${o.target}-all-corrected`)
      expect(corrected[5]).toBe(`${msText(o.corrected!.p50)} ms`)
      const first = run.results.find((r) => r.target === o.target && r.round === 1)!
      const scheduled = summary.rows(`${o.target}-schedule-scheduled`)
      expect(firstNumber((await scheduled.first().textContent()) ?? '')).toBe(first.schedule!.scheduled)
      const unsent = summary.rows(`${o.target}-schedule-unsent`)
      expect(firstNumber((await unsent.first().textContent()) ?? '')).toBe(first.schedule!.unsent)
    }
    // Server-Timing headers that were not durations: the CLI's words, under the round that got them.
    expect(middle.serverTimingInvalidSent).toBe(7)
    const invalidRounds = run.results.filter((r) => r.serverTimingInvalid > 0)
    expect(invalidRounds.map((r) => [r.target, r.round, r.serverTimingInvalid])).toEqual([['middle', 1, 7]])
    expect(ran.stdout).toContain(`server-timing middle #1: ${serverTimingInvalidText(7)}\n`)
    expect(await summary.texts('middle-server-timing-invalid')).toEqual([
      `↳ Server-Timing${serverTimingInvalidText(7)}`,
    ])
    // The distribution draws corrected latency beside latency.
    const distribution = runPage.chart('distribution')
    await distribution.drawn()
    expect(await distribution.text()).toContain('quick from intended send (corrected)')

    // 3. Compare, against steady with ±10 %: the same rows, the engine's headline and words.
    const baseline = { runId, target: 'steady' }
    const compared = await app.engine.runs.compare({ runIds: [runId], baseline, minEffect: 10 })
    await app.open(`#/compare?runs=${runId}&baseline=${runId}:steady&margin=10`)
    const comparePage = new ComparePage(page)
    await comparePage.ready()
    expect(await comparePage.headline.textContent()).toBe(compared.headline)
    for (const o of run.overRounds)
      expect(await comparePage.summary(runId).cells(`${o.target}-all`)).toEqual(detail[o.target])
    expect(compared.pairs.map((p) => p.other.target)).toEqual(['quick', 'middle'])
    for (const p of compared.pairs)
      expect(await comparePage.verdictWords(runId, p.other.target)).toEqual(
        p.metrics.map((m) => verdictWord(m, 10)),
      )

    // 4. The report the page exports: page 1 compares as the page does, says so, and prints the
    // same figure for each target.
    const report = comparePage.report
    await report.create(90_000)
    const pdf = readdirSync(join(dataDir, 'reports')).find((f) => f.endsWith('.pdf'))
    expect(pdf).toBeDefined()
    const page1 = pdfText(join(dataDir, 'reports', pdf!))
    expect(page1).toContain(compared.headline.replace(/\s+/g, ' '))
    expect(page1).toContain(
      `Compared against the baseline steady (run ${runId}); smallest difference that matters ±10 %.`,
    )
    for (const o of run.overRounds) {
      const { f, l } = expected(o)
      expect(page1).toContain(
        `${o.target} 3 ${fmtRate(f.throughput)} ${[l.p50, l.p95, l.p99, l.p999].map(fmtMs).join(' ')} ${fmtInt(f.failed)}`,
      )
      // The run page's p50 of the target, in the PDF's page 1.
      expect(detail[o.target]![5]).toBe(`${fmtMs(l.p50)} ms`)
    }
    expect(pdfText(join(dataDir, 'reports', pdf!), 1, 99)).toContain(
      `Server-Timing middle #1: ${serverTimingInvalidText(7)}`,
    )
    await app.screen('compare-rounds')
    // Page 1 beside the page it was exported from (the "done when").
    const drawn = spawnSync('pdftoppm', [
      '-png',
      '-r',
      '80',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      join(dataDir, 'reports', pdf!),
      join(KEPT_SCREENS, 'compare-rounds-pdf-page-1'),
    ])
    expect(drawn.status, String(drawn.stderr)).toBe(0)
  })
})
