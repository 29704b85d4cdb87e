// `cannonade calibrate URL` end to end (issue 27, item 6) against a counting target in a process of
// its own: the A/A run is stored (randomized, tagged calibrate), the spread it prints is the
// standard deviation of the stored rounds' log-ratios, its JSON holds every round and its noise;
// `runs show --json` gives each target's round a `noise` object (item 3); bad input is exit 2
// naming the flag.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTargetProcess, type TargetProcess } from '../testing/target-process.ts'
import { main } from './main.ts'

async function call(argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const stream = (into: string[]) =>
    ({ write: (s: string) => (into.push(s), true) }) as unknown as NodeJS.WritableStream
  const code = await main(argv, { stdout: stream(out), stderr: stream(err), isTTY: false })
  return { code, stdout: out.join(''), stderr: err.join('') }
}

let target: TargetProcess
let dir = ''

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cannonade-calibrate-'))
  target = await startTargetProcess({ delayMs: 2 })
})

afterAll(async () => {
  await target?.close()
})

interface CalJson {
  runId: number
  metrics: { metric: string; rounds: number; spreadPercent: number; robustSpreadPercent: number }[]
  resolvable: { minutes: number; rounds: number; halfWidth: Record<string, number | null> }[]
  roundSeconds: number
  rounds: {
    target: string
    round: number
    segment: number
    p50: number
    noise: { loadAverage: number | null; disturbed: boolean } | null
  }[]
}

describe('cannonade calibrate', () => {
  it("reports this machine's spread from an A/A run it stores", async () => {
    const db = join(dir, 'c.db')
    const json = join(dir, 'cal.json')
    const r = await call([
      'calibrate',
      `${target.url}/aa`,
      '--rounds',
      '4',
      '--duration',
      '1',
      '--cooldown',
      '0',
      '--connections',
      '2',
      '--minutes',
      '5',
      '--db',
      db,
      '--json',
      json,
    ])
    expect(r.code, r.stderr).toBe(0)
    console.log(r.stdout)
    const doc = JSON.parse(readFileSync(json, 'utf8')) as CalJson
    expect(r.stdout).toMatch(
      new RegExp(`^calibrate ${target.url}/aa: run ${doc.runId}, 4 rounds, as configured\\n`),
    )
    expect(r.stdout).toMatch(/^Round-to-round spread of A-again\/A/m)
    expect(r.stdout).toMatch(/^ {2}in 5 min \(\d+ rounds\): p50 ±/m)
    expect(doc.rounds).toHaveLength(8)
    expect(new Set(doc.rounds.map((x) => x.segment))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7]))
    // The spread printed is the standard deviation of the stored rounds' p50 log-ratios.
    const ln = [1, 2, 3, 4].map((round) => {
      const of = (t: string) => doc.rounds.find((x) => x.round === round && x.target === t)!.p50
      return Math.log(of('A-again') / of('A'))
    })
    const m = ln.reduce((a, b) => a + b) / 4
    const sd = Math.sqrt(ln.reduce((a, b) => a + (b - m) ** 2, 0) / 3)
    const p50 = doc.metrics.find((x) => x.metric === 'p50')!
    expect(p50.rounds).toBe(4)
    expect(p50.spreadPercent).toBeCloseTo((Math.exp(sd) - 1) * 100, 6)
    expect(doc.resolvable.map((x) => x.minutes)).toEqual([5, 10, 30, 60])
    expect(doc.resolvable[1]!.rounds).toBe(Math.floor(600 / doc.roundSeconds))

    // The run is stored like any other, and runs show --json gives each round its noise.
    const show = await call(['runs', 'show', String(doc.runId), '--json', '--db', db])
    expect(show.code, show.stderr).toBe(0)
    const run = JSON.parse(show.stdout) as {
      tags: string[]
      config: { schedule: string; scheduleSeed: number }
      rounds: { reason: string; seed: number; orders: { round: number; targets: string[] }[] }
      targets: { target: string; round: number; noise: Record<string, unknown> }[]
    }
    expect(run.tags).toEqual(['calibrate'])
    expect(run.config.schedule).toBe('randomized')
    expect(run.rounds).toMatchObject({ reason: 'fixed', seed: run.config.scheduleSeed })
    expect(run.rounds.orders.map((o) => [...o.targets].sort())).toEqual(
      Array.from({ length: 4 }, () => ['A', 'A-again']),
    )
    for (const t of run.targets) {
      expect(Object.keys(t.noise)).toEqual(
        expect.arrayContaining([
          'loadAverage',
          'stealPercent',
          'otherCpuPercent',
          'generatorCpuPercent',
          'disturbed',
        ]),
      )
      expect(typeof t.noise.disturbed).toBe('boolean')
      if (process.platform === 'linux') expect(t.noise.generatorCpuPercent).toBeGreaterThan(0)
    }
    const text = await call(['runs', 'show', String(doc.runId), '--db', db])
    expect(text.stdout).toMatch(/^rounds: 4 rounds, as configured$/m)
    expect(text.stdout).toMatch(/^order: randomized order \(seed \d+\); 1: /m)
    expect(text.stdout).toMatch(
      /^TARGET +ROUND +LOAD +OTHER CPU +STEAL +GENERATOR CPU +SEND LAG P99 +TARGET CPU +DISTURBED$/m,
    )
  }, 120_000)

  it('names bad input (exit 2)', async () => {
    const db = join(dir, 'bad.db')
    const cases: [string[], RegExp][] = [
      [[], /URL: missing/],
      [['not a url'], /^cannonade calibrate: URL: /],
      [[target.url, '--rounds', '2'], /--rounds must be a whole number from 3/],
      [[target.url, '--connections', '0'], /--connections: must be greater than 0/],
      [[target.url, '--duration', '-1'], /--duration: /],
      [[target.url, '--minutes', '0'], /--minutes must be above 0/],
      [
        [target.url, '--json', join(dir, 'no-such-folder', 'x.json')],
        /--json .*: the folder .* does not exist/,
      ],
    ]
    for (const [argv, message] of cases) {
      const r = await call(['calibrate', ...argv, '--db', db])
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.stderr, argv.join(' ')).toMatch(message)
    }
  })
})
