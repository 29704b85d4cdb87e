// The report follows the comparison the user made (issue 19 item 5), page 1 gives every target the
// figure every other screen gives it (item 4), and what is stored per instance is shown per
// instance (item 8): a stored run of three targets × three rounds, one of two processes
// (engine/testing/fixtures.ts writes every request and summaries that agree with them), reported
// by `cannonade report` with --baseline, --min-effect and --pair, its page 1 read back with
// pdftotext. Without Chromium or poppler-utils the PDF tests skip with the reason printed
// (CANNONADE_REQUIRE_DOCKER=1 makes that a failure).
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CompareOptions } from '../metrics/compare.ts'
import { compareRuns } from '../metrics/compare.ts'
import { figuresOf } from '../metrics/figures.ts'
import { reportCommand } from '../cli/report.ts'
import { runsCommand } from '../cli/runs.ts'
import { openDb, type Db } from '../db/db.ts'
import { HistoryStore, type RunDetail } from '../store/history-store.ts'
import { capturedCli } from '../testing/cli.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { tempDbPath } from '../testing/run-config.ts'
import { resourceSummary } from '../metrics/resource-summary.ts'
import { buildReportHtml, chromiumProblem, fmtInt, fmtMs, fmtRate, reportsCreate } from './index.ts'

const ARTIFACTS = join(process.cwd(), 'artifacts', 'report-choice')
const required = process.env.CANNONADE_REQUIRE_DOCKER === '1'
const unavailable =
  chromiumProblem() ??
  (spawnSync('pdftotext', ['-v']).error ? 'pdftotext is not installed (apt-get install poppler-utils)' : null)
if (unavailable)
  console.warn(
    `[report choice tests] ${required ? 'FAILING (CANNONADE_REQUIRE_DOCKER=1)' : 'skipped'}: ${unavailable}`,
  )

// A line may wrap anywhere: compare text with its whitespace squashed (and none after an en dash).
const squash = (s: string) => s.replace(/\s+/g, ' ').replace(/– /g, '–').trim()
const pages = (pdf: string, last = 1) =>
  squash(
    spawnSync('pdftotext', ['-f', '1', '-l', String(last), '-layout', pdf, '-'], { encoding: 'utf8' }).stdout,
  )
const page1 = (pdf: string) => pages(pdf)

let db: Db
let dbPath: string
let run: RunDetail

beforeAll(() => {
  mkdirSync(ARTIFACTS, { recursive: true })
  dbPath = tempDbPath()
  db = openDb(dbPath)
  const { runId } = insertFixtureRun(db, {
    rounds: 3,
    roundNoise: 0.15,
    samplesPerRound: 2000,
    targets: [
      { name: 'alpha', latencyUs: 2000, throughput: 4000, instances: 2 },
      { name: 'beta', latencyUs: 2600, throughput: 3500 },
      { name: 'gamma', latencyUs: 1500, throughput: 4500, errorRate: 0.01 },
    ],
  })
  run = new HistoryStore(db).getRun(runId)
})
afterAll(() => db?.close())

async function report(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const cli = capturedCli(dbPath)
  const code = await reportCommand(args, cli.ctx)
  return { code, out: cli.out(), err: cli.err() }
}

const expected = (o: CompareOptions) => compareRuns(new HistoryStore(db).compareRounds([run.runId]), o)

describe('the report shows what is stored per instance', () => {
  it('a resources table with each instance and the sum, charts per instance, page 1 from the same figures', () => {
    const store = new HistoryStore(db)
    const html = buildReportHtml(store, [run.runId])
    const alpha = resourceSummary(store.resources(run.runId), store.series(run.runId)).find(
      (t) => t.target === 'alpha',
    )!
    expect(alpha.instances).toHaveLength(2)
    const table = html.slice(
      html.indexOf('<h3>Resources</h3>'),
      html.indexOf('</table>', html.indexOf('<h3>Resources</h3>')),
    )
    expect(table).toContain(
      `<td>sum of 2</td><td class="num">${alpha.sum.cpu!.mean.toFixed(1)}</td><td class="num">${alpha.sum.cpu!.peak.toFixed(1)}</td>`,
    )
    for (const i of alpha.instances)
      expect(table).toContain(`<td>${i.instance}</td><td class="num">${i.cpu!.mean.toFixed(1)}</td>`)
    expect(html).toContain('CPU per instance over time: alpha')
    expect(html).toContain('Memory per instance over time: alpha')
    expect(html).not.toContain('CPU per instance over time: beta')
    // Page 1's CPU column: the same sum's mean.
    const entry = /<tr><td><b>alpha<\/b><\/td>[\s\S]*?<\/tr>/.exec(html)?.[0] ?? ''
    expect(entry).toContain(`<td class="num">${alpha.sum.cpu!.mean.toFixed(0)}</td>`)
  })
})

describe.skipIf(unavailable !== null && !required)('the report follows the comparison the user made', () => {
  it('--baseline and --min-effect: page 1 compares so, says so, and gives each target its figure over rounds', async () => {
    const pdf = join(ARTIFACTS, 'baseline.pdf')
    const r = await report([
      String(run.runId),
      '--out',
      pdf,
      '--baseline',
      `${run.runId}:beta`,
      '--min-effect',
      '10',
    ])
    expect(r.code, r.err).toBe(0)
    const text = page1(pdf)
    const c = expected({ baseline: { runId: run.runId, target: 'beta' }, minEffect: 10 })
    expect(text).toContain(squash(c.headline))
    expect(text).toContain(
      `Compared against the baseline beta (run ${run.runId}); smallest difference that matters ±10 %.`,
    )
    // The pairs follow the verdict (on the next page, where page 1 is full).
    const verdict = pages(pdf, 2)
    expect(verdict).toContain('alpha against beta')
    expect(verdict).toContain('gamma against beta')
    expect(verdict).toMatch(/beta alpha Ratio \(95 % CI\) Rounds Verdict geometric mean of geometric mean of/)
    // The Entry table: the target over its rounds, as `runs show` prints its "all" row.
    const cli = capturedCli(dbPath)
    expect(await runsCommand(['show', String(run.runId)], cli.ctx)).toBe(0)
    for (const over of run.overRounds) {
      const f = figuresOf(over)
      const l = over.latency
      expect(text).toContain(
        `${over.target} 3 ${fmtRate(f.throughput)} ${[l.p50, l.p95, l.p99, l.p999].map(fmtMs).join(' ')} ${fmtInt(f.failed)}`,
      )
      const all = cli
        .out()
        .split('\n')
        .find((line) => line.startsWith(`${over.target} `) && / all /.test(line))
      expect(all?.split(/\s+/).slice(3, 5)).toEqual([String(f.requests), f.throughput.toFixed(1)])
      expect(all?.split(/\s+/)[7]).toBe(fmtMs(l.p50))
    }
  })

  it('--pair: page 1 compares those pairs and names them', async () => {
    const pdf = join(ARTIFACTS, 'pair.pdf')
    const r = await report([String(run.runId), '--out', pdf, '--pair', 'alpha=gamma'])
    expect(r.code, r.err).toBe(0)
    const text = page1(pdf)
    const c = expected({
      pairs: [
        { baseline: { runId: run.runId, target: 'alpha' }, other: { runId: run.runId, target: 'gamma' } },
      ],
    })
    expect(text).toContain(squash(c.headline))
    expect(text).toContain(
      `Compared in the pairs gamma (run ${run.runId}) against alpha (run ${run.runId}); smallest difference that matters ±5 %.`,
    )
    expect(pages(pdf, 2)).toContain('gamma against alpha')
    expect(pages(pdf, 2)).not.toContain('against beta')
  })

  it('names a bad choice (exit 2) and writes nothing', async () => {
    const pdf = join(ARTIFACTS, 'bad.pdf')
    for (const [args, message] of [
      [['--baseline', `${run.runId}:delta`], `--baseline: run ${run.runId} has no target "delta"`],
      [['--baseline', '99:alpha'], '--baseline: run 99 is not one of the compared runs'],
      [['--min-effect', '0'], '--min-effect must be a percentage above 0'],
      [['--pair', 'alpha'], '--pair: "alpha" is not BASELINE=OTHER'],
    ] as const) {
      const r = await report([String(run.runId), '--out', pdf, ...args])
      expect(r.code, r.err).toBe(2)
      expect(r.err).toContain(message)
    }
    expect(spawnSync('test', ['-e', pdf]).status).not.toBe(0)
  })

  it("the Api's reports.create takes the Compare page's choice", async () => {
    const created = await reportsCreate(new HistoryStore(db), [run.runId], {
      dir: ARTIFACTS,
      format: 'html',
      compare: { baseline: { runId: run.runId, target: 'gamma' }, minEffect: 2.5 },
    })
    const html = readFileSync(created.path!, 'utf8')
    expect(html).toContain(
      `Compared against the baseline gamma (run ${run.runId}); smallest difference that matters ±2.5 %.`,
    )
    expect(html).toContain(
      expected({ baseline: { runId: run.runId, target: 'gamma' }, minEffect: 2.5 }).headline.slice(0, 60),
    )
  })
})
