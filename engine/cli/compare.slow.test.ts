// `cannonade compare` against a known truth: three local targets whose service time the test sets
// (1 ms, 4 ms, and a twin of the 1 ms one) and logs per request, five interleaved rounds by the
// real runner. The slower target must be called slower with an interval that contains the true
// ratio, derived from the servers' own log (service time + each target's measured loopback overhead); the
// twins must not be called different. Then pairs across runs by name, the JSON document, the Api's
// headline, and bad input.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunSummary } from '../api/types.ts'
import type { Db } from '../db/db.ts'
import { runConfig } from '../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import { compareCommand } from './compare.ts'
import { withEngine } from './common.ts'

interface JsonMetric {
  baseline: number
  other: number
  change: number | null
  ci: [number, number] | null
  excludesNoChange: boolean | null
  word: string
  verdict: string
}
interface JsonPair {
  baseline: { run: number; target: string }
  other: { run: number; target: string }
  metrics: Record<string, JsonMetric>
  notes: string[]
}
interface JsonDoc {
  headline: string
  pairs: JsonPair[]
}

async function call(argv: string[], dbPath: string) {
  const out: string[] = []
  const err: string[] = []
  const stream = (into: string[]) =>
    ({ write: (s: string) => (into.push(s), true) }) as unknown as NodeJS.WritableStream
  const code = await compareCommand(argv, { dbPath, stdout: stream(out), stderr: stream(err), isTTY: false })
  return { code, stdout: out.join(''), stderr: err.join('') }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

let dir = ''
let fast: CountingTarget
let slow: CountingTarget
let twin: CountingTarget
let db: Db
let dbPath: string
let run1: RunSummary
let run2: RunSummary

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cannonade-compare-'))
  ;[fast, slow, twin] = await Promise.all([
    startTarget({ delayMs: 1 }),
    startTarget({ delayMs: 4 }),
    startTarget({ delayMs: 1 }),
  ])
  const first = await runConfig({
    version: 1,
    name: 'fast, slow and a twin',
    targets: [
      { name: 'fast', url: `${fast.url}/x` },
      { name: 'slow', url: `${slow.url}/x` },
      { name: 'twin', url: `${twin.url}/x` },
    ],
    load: { connections: 2, duration: 1 },
    rounds: 5,
    schedule: 'interleaved',
    cooldownSeconds: 0,
  })
  ;({ db, dbPath } = first)
  run1 = first.summary
  // A second run in the same database: other connections, and the targets in another order.
  const { parseRunConfig } = await import('../config/load.ts')
  const { startRun } = await import('../runner/supervisor.ts')
  const config = parseRunConfig({
    version: 1,
    name: 'again, with 4 connections',
    targets: [
      { name: 'slow', url: `${slow.url}/x` },
      { name: 'fast', url: `${fast.url}/x` },
    ],
    load: { connections: 4, duration: 1 },
    rounds: 3,
    schedule: 'interleaved',
    cooldownSeconds: 0,
  })
  run2 = await (await startRun(db, dbPath, config)).done
}, 120_000)

afterAll(async () => {
  db?.close()
  await Promise.all([fast?.close(), slow?.close(), twin?.close()])
})

/**
 * The true p50 ratio of two targets from the servers' log: each one's median service time plus
 * its own loopback overhead (the median, over that target's requests, of what the client measured
 * minus what the server logged for the same correlation id). The overhead is a target's own: the
 * 4 ms target's is 30-60 µs more than the 1 ms one's on this machine (its process wakes from a
 * longer sleep), and one overhead for both put the truth 1-2 % low, outside a narrow interval.
 */
function trueP50Ratio(runId: number, prefix: string, base: CountingTarget, other: CountingTarget): number {
  const rows = db
    .prepare('SELECT seq, latency_us AS us FROM samples WHERE run_id = ? AND error = 0')
    .all(runId) as { seq: number; us: number }[]
  const client = new Map(rows.map((r) => [`${prefix}-${String(r.seq).padStart(10, '0')}`, r.us]))
  const truth = (t: CountingTarget): number => {
    const served = t.served.filter((s) => client.has(s.id))
    expect(served.length).toBeGreaterThan(500)
    return median(served.map((s) => s.us)) + median(served.map((s) => client.get(s.id)! - s.us))
  }
  return truth(other) / truth(base)
}

describe('cannonade compare', () => {
  it('calls the slower target slower, with an interval holding the true ratio; the twins are not different', async () => {
    expect(run1.status).toBe('done')
    const out = join(dir, 'compare.json')
    const r = await call([String(run1.runId), '--json', out], dbPath)
    expect(r.code, r.stderr).toBe(0)
    const doc = JSON.parse(readFileSync(out, 'utf8')) as JsonDoc
    expect(Object.keys(doc)).toEqual(expect.arrayContaining(['headline', 'pairs']))
    expect(doc.pairs.map((p) => [p.baseline, p.other])).toEqual([
      [
        { run: run1.runId, target: 'fast' },
        { run: run1.runId, target: 'slow' },
      ],
      [
        { run: run1.runId, target: 'fast' },
        { run: run1.runId, target: 'twin' },
      ],
    ])
    const [slower, twins] = doc.pairs as [JsonPair, JsonPair]
    for (const key of ['throughput', 'p50', 'p95', 'p99', 'p99.9', 'errorRate'])
      expect(Object.keys(slower.metrics[key] ?? {})).toEqual(
        expect.arrayContaining(['baseline', 'other', 'change', 'ci', 'excludesNoChange', 'word']),
      )
    const p50 = slower.metrics.p50!
    const truth = trueP50Ratio(run1.runId, run1.correlationPrefix, fast, slow)
    console.log(
      `slow/fast p50: ${(1 + p50.change!).toFixed(3)}× (95 % CI ${(1 + p50.ci![0]).toFixed(3)}–${(1 + p50.ci![1]).toFixed(3)}×), truth from the servers' log ${truth.toFixed(3)}×`,
    )
    expect(p50).toMatchObject({ excludesNoChange: true, verdict: 'higher', word: 'slower' })
    expect(p50.change).toBeCloseTo(p50.other / p50.baseline - 1, 3)
    expect(1 + p50.ci![0]).toBeLessThanOrEqual(truth)
    expect(1 + p50.ci![1]).toBeGreaterThanOrEqual(truth)
    expect(slower.metrics.throughput).toMatchObject({ verdict: 'lower' })
    for (const key of ['p50', 'p99'])
      expect(['same', 'inconclusive'], key).toContain(twins.metrics[key]!.verdict)
    // The headline opens the output, then the table, then the method once.
    expect(r.stdout.startsWith('slow is slower than fast at the median (p50 ')).toBe(true)
    expect(doc.headline.replace(/\s+/g, ' ')).toBe(r.stdout.split('\n\n')[0]!.replace(/\s+/g, ' '))
    expect(r.stdout).toMatch(
      /PAIR \(OTHER \/ BASELINE\) +METRIC +BASELINE +OTHER +RATIO \(95 % CI\) +ROUNDS AGREEING +VERDICT/,
    )
    expect(r.stdout).toMatch(/slow \/ fast +throughput/)
    expect(r.stdout.match(/Method: each round is one observation/g)).toHaveLength(1)
    console.log(r.stdout)
  })

  it('the Api returns the same headline, with notes per pair', async () => {
    const result = await withEngine(dbPath, (host) =>
      host.runs.compare({ runIds: [run1.runId], baseline: { runId: run1.runId, target: 'slow' } }),
    )
    expect(result.baseline).toMatchObject({ target: 'slow' })
    expect(result.pairs.map((p) => p.other.target)).toEqual(['fast', 'twin'])
    expect(result.pairs.every((p) => Array.isArray(p.notes) && p.design === 'paired')).toBe(true)
    expect(result.headline).toMatch(/^At the median|^fast is faster than slow/)
    const cli = await call([String(run1.runId), '--baseline', 'slow'], dbPath)
    expect(cli.stdout.replace(/\s+/g, ' ')).toContain(result.headline)
  })

  it('across runs: pairs by name, names the config difference, and --baseline picks the run', async () => {
    const out = join(dir, 'across.json')
    const r = await call([String(run1.runId), String(run2.runId), '--json', out], dbPath)
    expect(r.code, r.stderr).toBe(0)
    const doc = JSON.parse(readFileSync(out, 'utf8')) as JsonDoc
    expect(
      doc.pairs.map((p) => `${p.baseline.target}@${p.baseline.run} ${p.other.target}@${p.other.run}`),
    ).toEqual([`fast@${run1.runId} fast@${run2.runId}`, `slow@${run1.runId} slow@${run2.runId}`])
    const note = `Runs ${run1.runId} and ${run2.runId} differ in connections (2 vs 4).`
    expect(doc.pairs[0]!.notes).toContain(note)
    expect(doc.headline.split(note)).toHaveLength(2)
    expect(doc.headline).toMatch(/twin \(run \d+\) has no target of the same name/)
    const flipped = await call(
      [String(run1.runId), String(run2.runId), '--baseline', `${run2.runId}:fast`, '--json', out],
      dbPath,
    )
    expect(flipped.code, flipped.stderr).toBe(0)
    const again = JSON.parse(readFileSync(out, 'utf8')) as JsonDoc
    expect(again.pairs.every((p) => p.baseline.run === run2.runId)).toBe(true)
    const explicit = await call(
      [
        String(run1.runId),
        String(run2.runId),
        '--pair',
        `${run1.runId}:twin=${run2.runId}:slow`,
        '--json',
        out,
      ],
      dbPath,
    )
    expect(explicit.code, explicit.stderr).toBe(0)
    const pairs = (JSON.parse(readFileSync(out, 'utf8')) as JsonDoc).pairs
    expect(pairs.map((p) => [p.baseline.target, p.other.target])).toEqual([['twin', 'slow']])
  })

  it('names bad input (exit 2)', async () => {
    const id = String(run1.runId)
    const cases: [string[], RegExp][] = [
      [[], /ID: missing/],
      [['x'], /ID "x" is not a run id/],
      [['999'], /run 999 does not exist/],
      [[id, '--baseline', 'nope'], /--baseline: no compared run has a target "nope"/],
      [
        [id, '--baseline', `${id}:nope`],
        /--baseline: run \d+ has no target "nope" \(it has fast, slow, twin\)/,
      ],
      [
        [id, String(run2.runId), '--baseline', 'fast'],
        /--baseline: "fast" is in runs \d+ and \d+; write RUN:TARGET/,
      ],
      [[id, '--pair', 'fast'], /--pair: "fast" is not BASELINE=OTHER/],
      [[id, '--min-effect', '0'], /--min-effect must be a percentage above 0/],
      [[id, '--min-effect', 'x'], /--min-effect: "x" is not a number/],
    ]
    for (const [argv, message] of cases) {
      const r = await call(argv, dbPath)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.stderr, argv.join(' ')).toMatch(message)
    }
  })
})
