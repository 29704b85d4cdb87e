// Reports from real runs: two runs made by the engine against in-process targets, the
// report printed by headless Chromium, its text read back with pdftotext and its pages rendered
// to PNG with pdftoppm (kept in artifacts/report/). Without Chromium or poppler-utils these tests
// are skipped with the reason printed, unless CANNONADE_REQUIRE_DOCKER=1 (CI), where they fail.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseRunConfig } from '../config/load.ts'
import { compareRuns } from '../metrics/compare.ts'
import { startRun } from '../runner/supervisor.ts'
import { openDb, type Db } from '../db/db.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { HistoryStore } from '../store/history-store.ts'
import { runConfig } from '../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import { ApiError } from '../api/errors.ts'
import type { RunSummary } from '../api/types.ts'
import { reportCommand } from '../cli/report.ts'
import {
  buildReportHtml,
  chromiumProblem,
  createReport,
  fmtInt,
  fmtMs,
  renderPdf,
  reportsCreate,
} from './index.ts'
import { percentileCurve } from '../metrics/distribution.ts'
import { niceTicks } from './svg.ts'

const ARTIFACTS = join(process.cwd(), 'artifacts', 'report')
const required = process.env.CANNONADE_REQUIRE_DOCKER === '1'

function missing(): string | null {
  const chrome = chromiumProblem()
  if (chrome) return chrome
  for (const tool of ['pdftotext', 'pdftoppm']) {
    if (spawnSync(tool, ['-v']).error) return `${tool} is not installed (apt-get install poppler-utils)`
  }
  return null
}
const unavailable = missing()
if (unavailable) {
  console.warn(
    `[report PDF tests] ${required ? 'FAILING (CANNONADE_REQUIRE_DOCKER=1)' : 'skipped'}: ${unavailable}`,
  )
}

const pdfText = (file: string) => spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).stdout
// A line may wrap after an en dash ("0.38–\n5.35×"): that break is no space of the text.
const squash = (s: string) => s.replace(/\s+/g, ' ').replace(/– /g, '–')
/** A word hyphenated at a line's end reads "javajetty" (pdftotext) or "java- jetty" (-layout): sentences are compared without hyphens. */
const unhyphenated = (t: string) => t.replace(/- ?/g, '')

describe('report HTML', () => {
  it('escapes run names, tags and notes (no HTML injection)', () => {
    const db = openDb(':memory:')
    const evil = '<script>alert(1)</script><img src=x onerror=alert(2)>'
    const { runId } = insertFixtureRun(db, {
      name: evil,
      tags: ['"><svg onload=alert(3)>'],
      note: '</style><script>alert(4)</script>',
      rounds: 1,
    })
    const html = buildReportHtml(new HistoryStore(db), [runId])
    expect(html).not.toMatch(/<script/i)
    expect(html).not.toMatch(/<img/i)
    expect(html).not.toMatch(/<svg onload/i)
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;')
    expect(html).toContain('&quot;&gt;&lt;svg onload=alert(3)&gt;')
    // Self-contained: nothing fetched from anywhere.
    expect(html).not.toMatch(/(src|href)=["']?https?:/i)
    expect(html).toContain("default-src 'none'")
    db.close()
  })

  it('reports a run without finished results and a single-target run, saying what is missing', () => {
    const db = openDb(':memory:')
    const running = insertFixtureRun(db, { status: 'running', targets: [{ name: 'solo' }] }).runId
    db.prepare('UPDATE run_targets SET summary = NULL, histogram = NULL WHERE run_id = ?').run(running)
    const single = insertFixtureRun(db, { targets: [{ name: 'solo' }] }).runId
    const html = buildReportHtml(new HistoryStore(db), [running, single])
    expect(html).toContain(`Run ${running} has no finished results.`)
    expect(html).toContain(`run ${running} has no finished results to compare`)
    expect(html).toContain('One target in this run')
    expect(() => buildReportHtml(new HistoryStore(db), [999])).toThrow(/run 999 does not exist/)
    db.close()
  })

  it('names the Chromium path and CANNONADE_CHROMIUM when Chromium is missing', async () => {
    const err = await renderPdf('<p>x</p>', join(ARTIFACTS, 'never.pdf'), {
      executablePath: '/nonexistent/chromium',
    }).then(
      () => null,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).code).toBe('unavailable')
    expect((err as ApiError).message).toMatch(/\/nonexistent\/chromium.*CANNONADE_CHROMIUM/)
  })

  it('draws charts from round ticks and an HdrHistogram-style percentile curve', () => {
    expect(niceTicks(0, 97)).toEqual([0, 20, 40, 60, 80])
    // From the median to the end of the resolution 1 000 requests have (p99.9), ending at the max.
    const curve = percentileCurve((p) => p * 10, 1000, 2000)
    expect(curve[0]![0]).toBeCloseTo(Math.log10(2))
    expect(curve[0]![1]).toBeCloseTo(500)
    expect(curve.at(-1)).toEqual([3, 2000])
    expect(curve.every((p, i) => i === 0 || p[1] >= curve[i - 1]![1])).toBe(true)
  })
})

describe.skipIf(unavailable !== null && !required)('PDF report from two real runs', () => {
  let a: CountingTarget
  let b: CountingTarget
  let db: Db
  let dbPath: string
  let run1: RunSummary
  let run2: RunSummary

  beforeAll(async () => {
    if (unavailable)
      throw new Error(`report PDF tests are required (CANNONADE_REQUIRE_DOCKER=1) but ${unavailable}`)
    rmSync(ARTIFACTS, { recursive: true, force: true })
    mkdirSync(ARTIFACTS, { recursive: true })
    a = await startTarget({ delayMs: 1 })
    b = await startTarget({ delayMs: 4 })
    // Run 1: two monitored targets, 3 rounds each (so differences get confidence intervals).
    const first = await runConfig({
      version: 1,
      name: 'node vs jetty <b>bold</b>',
      targets: [
        { name: 'node-http', url: `${a.url}/ads`, monitor: { kind: 'process', port: a.port } },
        { name: 'java-jetty', url: `${b.url}/ads`, monitor: { kind: 'process', port: b.port } },
      ],
      load: { connections: 4, duration: 1 },
      rounds: 3,
      schedule: 'interleaved',
      cooldownSeconds: 0,
      tags: ['report-test'],
    })
    ;({ db, dbPath } = first)
    run1 = first.summary
    // Run 2, same database: one target with named phases (per-phase tables).
    const config = parseRunConfig({
      version: 1,
      name: 'node phases',
      targets: [{ name: 'node-http', url: `${a.url}/ads` }],
      load: {
        connections: 4,
        profile: {
          kind: 'phases',
          phases: [
            { name: 'warmup', share: 0.5, duration: 1 },
            { name: 'peak', share: 1, duration: 1 },
          ],
        },
      },
      cooldownSeconds: 0,
    })
    run2 = await (await startRun(db, dbPath, config)).done
  })

  afterAll(async () => {
    db?.close()
    await a?.close()
    await b?.close()
  })

  it('pdftotext finds the target names, stored figures and page numbers; pages render to PNG', async () => {
    expect(run1.status).toBe('done')
    expect(run2.status).toBe('done')
    const store = new HistoryStore(db)
    const out = join(ARTIFACTS, 'report.pdf')
    const stages: string[] = []
    const created = await createReport(store, [run1.runId, run2.runId], {
      out,
      html: join(ARTIFACTS, 'report.html'),
      onProgress: (p) => stages.push(p.stage),
    })
    expect(stages).toEqual(['loading data', 'building html', 'rendering pdf', 'done'])
    expect(created.bytes).toBeGreaterThan(10_000)

    const text = squash(pdfText(out))
    for (const name of [
      'node-http',
      'java-jetty',
      'node vs jetty <b>bold</b>',
      'node phases',
      'warmup',
      'peak',
    ]) {
      expect(text).toContain(name)
    }
    // The figures as stored in the database, formatted as the tables print them.
    for (const run of [run1, run2]) {
      for (const r of store.getRun(run.runId).results) {
        expect(text).toContain(`${fmtInt(r.requests)} `)
        expect(text).toContain(fmtMs(r.latency.p99))
        expect(text).toContain(fmtMs(r.latency.p999))
      }
    }
    expect(run1.results).toHaveLength(6)
    // Page 1: the comparison's headline (across the runs: node-http with node-http), then every
    // entry side by side; the first run's own targets are compared in its section.
    const across = compareRuns(store.compareRounds([run1.runId, run2.runId]))
    const within = compareRuns(store.compareRounds([run1.runId]))
    const page1 = squash(
      spawnSync('pdftotext', ['-f', '1', '-l', '1', out, '-'], { encoding: 'utf8' }).stdout,
    )
    expect(unhyphenated(page1)).toContain(unhyphenated(squash(across.headline)))
    expect(across.headline).toMatch(/Runs \d+ and \d+ differ in load profile \(constant vs phases\)/)
    expect(page1).toMatch(
      /Entry Rounds Throughput req\/s p50 ms p95 ms p99 ms p99.9 ms Errors CPU % mean Memory mean/,
    )
    // ... and the latency distribution of every entry, on the same page.
    expect(page1).toContain('Latency distribution of every target in every run')
    let body = within.headline
    for (const note of within.notes) body = body.replace(note, '')
    expect(unhyphenated(text)).toContain(unhyphenated(squash(body.trim())))
    expect(within.pairs[0]?.design).toBe('paired')
    // No sentence twice: every caveat and the method appear once in the whole report.
    for (const sentence of [...across.notes, ...within.notes, across.method]) {
      expect(unhyphenated(text).split(unhyphenated(squash(sentence))).length - 1, sentence).toBe(1)
    }
    expect(text).toContain('95 % CI')
    expect(text).toContain('Throughput vs CPU')

    const r = spawnSync('pdftoppm', ['-png', '-r', '50', out, join(ARTIFACTS, 'page')], { encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    const pages = readdirSync(ARTIFACTS).filter((f) => /^page-\d+\.png$/.test(f))
    expect(pages.length).toBeGreaterThan(0)
    console.log(
      `report of 2 runs: ${pages.length} pages, ${(created.bytes / 1024).toFixed(0)} KiB, ${created.elapsedMs} ms -> ${out}`,
    )
    expect(text).toContain(`Page 1 / ${pages.length}`)
    expect(text).toContain(`Page ${pages.length} / ${pages.length}`)
  })

  it('the CLI writes the report and names bad arguments (exit 2)', async () => {
    const io = () => {
      const chunks: string[] = []
      return {
        chunks,
        stream: { write: (s: string) => (chunks.push(s), true) } as unknown as NodeJS.WritableStream,
      }
    }
    const call = async (argv: string[]) => {
      const o = io()
      const e = io()
      const code = await reportCommand(argv, { dbPath, stdout: o.stream, stderr: e.stream, isTTY: false })
      return { code, out: o.chunks.join(''), err: e.chunks.join('') }
    }
    const out = join(ARTIFACTS, 'cli.pdf')
    const ok = await call([String(run2.runId), '--out', out])
    expect(ok.code, ok.err).toBe(0)
    expect(ok.out.trim()).toBe(out)
    expect(existsSync(out)).toBe(true)
    expect(await call(['--out', out])).toMatchObject({ code: 2, err: expect.stringContaining('ID') })
    expect(await call(['x1', '--out', out])).toMatchObject({
      code: 2,
      err: expect.stringContaining('ID: "x1"'),
    })
    expect(await call(['9999', '--out', out])).toMatchObject({
      code: 2,
      err: expect.stringContaining('run 9999'),
    })
    expect(await call([String(run1.runId)])).toMatchObject({ code: 2, err: expect.stringContaining('--out') })
  })

  it('reportsCreate writes into a directory; a report of 4 runs is timed', async () => {
    const store = new HistoryStore(db)
    const viaApi = await reportsCreate(store, [run1.runId], { dir: join(ARTIFACTS, 'api'), format: 'html' })
    expect(viaApi).toMatchObject({ runIds: [run1.runId], rows: 0 })
    expect(viaApi.path).toMatch(/cannonade-report-runs-\d+-\d{8}-\d{6}\.html$/)

    // Two more runs, 60 s rounds with resource samples (synthetic: a real minute each would make
    // the suite slow); the timing covers loading, HTML and Chromium for all four.
    const longer = (seed: number) =>
      insertFixtureRun(db, {
        seed,
        rounds: 2,
        samplesPerRound: 30_000,
        targets: [
          { name: 'java-jetty', throughput: 500 },
          { name: 'node-http', throughput: 520, latencyUs: 2300 },
        ],
      }).runId
    const ids = [run1.runId, run2.runId, longer(11), longer(12)]
    const started = performance.now()
    const stages: string[] = []
    const created = await createReport(store, ids, {
      out: join(ARTIFACTS, 'four-runs.pdf'),
      onProgress: (p) => stages.push(`${p.stage} at ${p.elapsedMs} ms`),
    })
    const seconds = (performance.now() - started) / 1000
    const pages = spawnSync('pdfinfo', [created.path], { encoding: 'utf8' }).stdout.match(
      /Pages:\s+(\d+)/,
    )?.[1]
    console.log(
      `report of 4 runs: ${seconds.toFixed(2)} s, ${pages ?? '?'} pages, ${(created.bytes / 1024).toFixed(0)} KiB (${stages.join(', ')})`,
    )
    expect(created.runIds).toEqual(ids)
  })
})
