// One run, every screen, the same figures: a target with a known behaviour (answers in ~3 ms,
// every 10th request with 503, then stops answering: its requests time out, and those still held
// when the window closes are in flight at the end) run by the real `cannonade` command, then read
// back through `runs show` (text and JSON), the Api, the run's page in the browser, the CSV and
// JSON exports, PostgreSQL (a throwaway cluster, when there is one), JUnit and the report (HTML
// and the PDF's text), and in the app the live view, run detail, compare and the study page (the
// run is the one value of a study, so it has a study page). Each screen must show the count, the
// throughput (responses per second), the errors and the requests in flight at the end that
// engine/metrics/figures.ts defines, and no chart may draw a timeout as throughput or a latency
// of 0 ms.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import type { RunSummary, StudyResults } from '../engine/api/types.ts'
import { figuresOf, type Figures } from '../engine/metrics/figures.ts'
import { fmtInt, fmtRate } from '../engine/report/format.ts'
import { pgAvailableForTests, startPg } from '../engine/testing/pg.ts'
import { startTarget } from '../engine/testing/target.ts'
import { ComparePage, LivePage, RunDetailPage, StudyPage } from './pages/pages.ts'
import { appPerTest } from './support/app.ts'
import { cannonade, cliRow, firstNumber } from './support/cli.ts'

const { start } = appPerTest()

describe('the same figures on every screen', () => {
  it('CLI, runs show, Api, live view, run detail, compare, study page, CSV, JSON, PostgreSQL, JUnit and the report agree on one run', async () => {
    const target = await startTarget({ delayMs: 3, failEvery: { every: 10, status: 503 }, hangAfterMs: 2000 })
    const dataDir = mkdtempSync(join(tmpdir(), 'cannonade-figures-'))
    const db = join(dataDir, 'cannonade.db')
    const config = join(dataDir, 'figures.yaml')
    writeFileSync(
      config,
      `version: 1
name: figures everywhere
targets:
  - name: stalls
    url: ${target.url}/x
load: { connections: 3, duration: 4, timeoutMs: 700 }
cooldownSeconds: 0
thresholds:
  - { metric: p99, max: 200000 }
sweep: { path: load.connections, values: [3] }
`,
    )
    // 1. The command line: `run` (its table and --json), then `runs show` (text and --json).
    const jsonOut = join(dataDir, 'summary.json')
    const ran = await cannonade(['run', config, '--db', db, '--json', jsonOut])
    await target.close()
    expect(ran.code, ran.stderr).toBe(0)
    // A study of one value: `run` writes the study and its one run's summary.
    const studyJson = JSON.parse(readFileSync(jsonOut, 'utf8')) as {
      studyId: number
      results: StudyResults
      runs: { runId: number; targets: Record<string, unknown>[] }[]
    }
    const summaryJson = studyJson.runs[0]!
    const runId = summaryJson.runId
    const shown = await cannonade(['runs', 'show', String(runId), '--db', db])
    const shownJson = JSON.parse(
      (await cannonade(['runs', 'show', String(runId), '--db', db, '--json'])).stdout,
    ) as {
      targets: Record<string, unknown>[]
    }

    // 2. The Api (the app's engine on the same data folder): the run and its series.
    const app = await start({ dataDir })
    const run: RunSummary = await app.engine.runs.get(runId)
    const f: Figures = figuresOf(run.results[0]!)
    // The truth the target sets: 503s, timeouts after the stall, requests held at the end.
    expect(f.errors.status ?? 0).toBeGreaterThan(0)
    expect(f.errors.timeout ?? 0).toBeGreaterThan(0)
    expect(f.inflight).toBeGreaterThanOrEqual(1)
    expect(f.failed).toBe((f.errors.status ?? 0) + (f.errors.timeout ?? 0))
    const series = await app.engine.runs.series(runId)
    expect(series.reduce((s, p) => s + p.responses, 0)).toBe(f.answered)
    expect(series.reduce((s, p) => s + p.requests, 0)).toBe(f.requests)
    expect(series.reduce((s, p) => s + p.errors, 0)).toBe(f.failed)
    for (const p of series) if (p.responses === 0) expect(p.p99).toBeNull()

    // The CLI: both commands print the same row, the JSON documents the same counts.
    for (const text of [ran.stdout, shown.stdout]) {
      const row = cliRow(text, 'stalls')
      expect(row[3]).toBe(String(f.requests))
      expect(row[4]).toBe(f.throughput.toFixed(1))
      expect(row[13]).toBe(String(f.failed))
      expect(row[14]).toBe(String(f.inflight))
      expect(text).toContain(
        `errors stalls #1: timeout ${f.errors.timeout} · unexpected status ${f.errors.status} (503 ×${f.errors.status})`,
      )
    }
    expect(ran.stdout).toMatch(/threshold p99 ≤ 200 ms on stalls: \d+\.\d\d ms, passed/)
    expect(shown.stdout).toMatch(/threshold p99 ≤ 200 ms on stalls: \d+\.\d\d ms, passed/)
    const counts = {
      requests: f.requests,
      answered: f.answered,
      failed: f.failed,
      inflight: f.inflight,
      errors: f.errors,
      throughput: Math.round(f.throughput * 100) / 100,
    }
    expect(summaryJson.targets[0]).toMatchObject(counts)
    expect(shownJson.targets[0]).toMatchObject(counts)

    // 3. The run's page: the same row, and charts without timeouts as throughput or 0 ms.
    const { page } = app
    await app.open(`#/runs/${runId}`)
    const detail = new RunDetailPage(page)
    const cells = await detail.summary.cells('stalls')
    // Time, Requests, Throughput, Mean, Std dev, p50, p95, p99, p99.9, Max, Errors, In flight at end
    expect(firstNumber(cells[1]!)).toBe(f.requests)
    // Throughput with one decimal, as the CLI and the report print it.
    expect(cells[2]).toBe(`${fmtRate(f.throughput)} req/s`)
    expect(firstNumber(cells[10]!)).toBe(f.failed)
    expect(firstNumber(cells[11]!)).toBe(f.inflight)
    expect(await detail.thresholds.textContent()).toMatch(/p99 ≤ 200 ms on stalls: [\d.]+ ms, passed/)
    const latency = await detail.chart('latency').lineGeometry()
    expect(latency.lines.flat().length).toBeGreaterThan(0)
    // Every latency vertex is above the 0 ms baseline: silent seconds are gaps.
    for (const y of latency.lines.flat()) expect(y).toBeLessThan(latency.axis - 0.5)
    const throughput = await detail.chart('throughput').lineGeometry()
    const thr = throughput.lines[0]!
    // After the stall the line is at 0 responses/s, whatever number of timeouts those seconds had.
    expect(thr.at(-1)).toBeCloseTo(throughput.axis, 0)
    expect(Math.min(...thr)).toBeLessThan(throughput.axis - 10)
    await detail.chart('distribution').drawn()
    await app.screen('run-detail-stalls')

    // The live view of the ended run, compare (the same table) and the study page.
    await app.open(`#/live/${runId}`)
    const live = new LivePage(page)
    await live.statTile('inflight').waitFor()
    expect([await live.stat('requests'), await live.stat('errors'), await live.stat('inflight')]).toEqual([
      f.requests,
      f.failed,
      f.inflight,
    ])
    await app.open(`#/compare?runs=${runId}`)
    expect(await new ComparePage(page).summary(runId).cells('stalls')).toEqual(cells)
    const point = studyJson.results.targets[0]!.points[0]!
    expect(point.throughput).toBe(f.throughput)
    expect(point.errorRate).toBe(f.errorRate)
    await app.open(`#/studies/${studyJson.studyId}`)
    const studyCells = await new StudyPage(page).pointCells(0)
    // Value, Run, Throughput, p50, p95, p99, Error rate: as run detail prints them.
    expect(studyCells.slice(2, 6)).toEqual([cells[2], cells[5], cells[6], cells[7]])
    expect(firstNumber(studyCells[6]!)).toBeCloseTo((100 * f.failed) / f.requests, 1)

    // 4. Exports: CSV samples and series, the JSON document, JUnit.
    const samples = readFileSync((await app.engine.exports.csv(runId, { kind: 'samples' })).path!, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','))
    expect(samples.filter((c) => c[6] !== '').length).toBe(f.answered)
    expect(samples.filter((c) => c[10] === 'inflight').length).toBe(f.inflight)
    expect(samples.filter((c) => c[10] !== 'none' && c[10] !== 'inflight').length).toBe(f.failed)
    const seriesCsv = readFileSync((await app.engine.exports.csv(runId, { kind: 'series' })).path!, 'utf8')
      .trimEnd()
      .split('\n')
    const head = seriesCsv[0]!.split(',')
    const sum = (name: string) =>
      seriesCsv.slice(1).reduce((s, l) => s + Number(l.split(',')[head.indexOf(name)]), 0)
    expect([sum('requests'), sum('responses'), sum('errors'), sum('errors_inflight')]).toEqual([
      f.requests,
      f.answered,
      f.failed,
      f.inflight,
    ])
    const exported = JSON.parse(readFileSync((await app.engine.exports.json([runId])).path!, 'utf8')) as {
      runs: { runTargets: { summary: RunSummary['results'][number] }[] }[]
    }
    expect(figuresOf(exported.runs[0]!.runTargets[0]!.summary)).toEqual(f)
    const junit = readFileSync((await app.engine.exports.junit(runId)).path!, 'utf8')
    expect(junit).toContain('name="p99 ≤ 200 ms"')

    // 5. PostgreSQL: the figures_v view of the exported run.
    if (pgAvailableForTests()) {
      const pg = await startPg({ durable: false })
      try {
        await app.engine.exports.pg([runId], { url: pg.url })
        const row = pg
          .psql(
            `SELECT sent, requests, answered, failed, inflight, round(throughput::numeric, 6) FROM cannonade.figures_v WHERE local_run_id = ${runId}`,
          )
          .trim()
          .split('|')
          .map(Number)
        expect(row).toEqual([
          f.sent,
          f.requests,
          f.answered,
          f.failed,
          f.inflight,
          Number(f.throughput.toFixed(6)),
        ])
      } finally {
        await pg.stop()
      }
    }

    // 6. The report: its table row in the HTML, and the same figures in the PDF's text.
    const html = readFileSync((await app.engine.reports.create([runId], { format: 'html' })).path!, 'utf8')
    const row = /<tr><td class="name"><b>stalls<\/b><\/td>[\s\S]*?<\/tr>/.exec(html)?.[0] ?? ''
    expect(row).toContain(`<td class="num">${fmtInt(f.requests)}</td>`)
    expect(row).toContain(`<td class="num">${fmtRate(f.throughput)}</td>`)
    expect(row).toContain(`timeout ${fmtInt(f.errors.timeout ?? 0)}`)
    expect(row).toMatch(new RegExp(`<td class="num">${f.inflight}</td></tr>$`))
    expect(html).toContain('p99 ≤ 200 ms')
    const pdf = (await app.engine.reports.create([runId], { format: 'pdf' })).path!
    const text = spawnSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }).stdout.replace(
      /\s+/g,
      ' ',
    )
    // Target, round, time, requests, throughput: the row as pdftotext reads it.
    expect(text).toContain(` ${fmtInt(f.requests)} ${fmtRate(f.throughput)} `)
    expect(text).toContain(`timeout ${fmtInt(f.errors.timeout ?? 0)}`)
    expect(text).toContain('p99 ≤ 200 ms')
  })
})
