// `cannonade run` through the real command: the --json summary, exit codes 0/1/2 (README.md, "The
// command line"), and bad input named by field or flag with nothing written.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { msText } from '../metrics/units.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import { withEngine } from './common.ts'

const BIN = fileURLToPath(new URL('../../bin/cannonade.mjs', import.meta.url))

function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 99) : 0
        resolve({ code, stdout, stderr })
      },
    )
  })
}

let dir = ''
let target: CountingTarget
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cannonade-cli-'))
  target = await startTarget()
})
afterAll(async () => {
  await target.close()
})

async function runCount(db: string): Promise<number> {
  if (!existsSync(db)) return 0
  return withEngine(db, async (host) => (await host.runs.list()).total)
}

const yaml = (load: string, url = `${'URL'}/x`) => `version: 1
name: cli test
targets:
  - name: local
    url: ${url}
load:
${load}
cooldownSeconds: 0
`

describe('cannonade run', () => {
  it('runs a YAML config, writes the --json summary and exits 0', async () => {
    const cfg = join(dir, 'ok.yaml')
    writeFileSync(
      cfg,
      yaml('  connections: 2\n  duration: 1', `${target.url}/x`) +
        'thresholds:\n  - metric: p99\n    max: 5000000\n',
    )
    const db = join(dir, 'ok.db')
    const out = join(dir, 'ok.json')
    const r = await cli(['run', cfg, '--db', db, '--json', out, '--quiet'])
    // --quiet leaves warnings only; one says a machine busier than its cores before the run (a
    // shared build machine often is: issue 27), and is the one warning this run may have.
    expect(
      r.stderr.replace(/^warning: This machine is busier than its cores before the run: [^\n]*\n/, ''),
    ).toBe('')
    expect(r.code).toBe(0)
    const s = JSON.parse(readFileSync(out, 'utf8'))
    expect(s).toMatchObject({ status: 'done', thresholdsPassed: true })
    expect(typeof s.runId).toBe('number')
    const t = s.targets[0]
    expect(t.target).toBe('local')
    expect(t.requests).toBeGreaterThan(0)
    expect(Object.keys(t.latency)).toEqual(['mean', 'stddev', 'p50', 'p90', 'p95', 'p99', 'p99.9', 'max'])
    expect(t.throughput).toBeGreaterThan(0)
    expect(t.phases[0].phase).toBe('main')
    expect(await runCount(db)).toBe(1)
  })

  it('prints connect times and, in rate mode, the schedule; runs show prints the same lines', async () => {
    const cfg = join(dir, 'rate.yaml')
    writeFileSync(cfg, yaml('  connections: 2\n  duration: 1\n  rate: 200', `${target.url}/x`))
    const db = join(dir, 'rate.db')
    const out = join(dir, 'rate.json')
    const r = await cli(['run', cfg, '--db', db, '--json', out])
    expect(r.code).toBe(0)
    const schedule =
      /^schedule local #1: 200 scheduled, (\d+) sent, (\d+) never sent(?: \(every connection busy\))?, \d+ late > 1 ms, lateness p50 [\d.]+ \/ p90 [\d.]+ \/ p99 [\d.]+ \/ max [\d.]+ ms, peak \d+ connections busy$/m
    // Plain http: the connect time is a TCP connect, no TLS handshake.
    const connect =
      /^connect local #1: 2 connections opened in p50 [\d.]+ \/ p99 [\d.]+ \/ max [\d.]+ ms \(TCP connect, not in latency\)$/m
    expect(r.stdout).toMatch(schedule)
    expect(r.stdout).toMatch(connect)
    expect(r.stdout).not.toMatch(/TLS/)
    const t = JSON.parse(readFileSync(out, 'utf8')).targets[0]
    const [, sent, unsent] = schedule.exec(r.stdout)!
    expect([Number(sent), Number(unsent)]).toEqual([t.schedule.sent, t.schedule.unsent])
    // Corrected latency (from the intended send time) is a row beside latency, as the JSON has it.
    const corrected = r.stdout
      .split('\n')
      .find((l) => l.startsWith('  ↳ corrected (from intended send)'))
      ?.slice('  ↳ corrected (from intended send)'.length)
      .trim()
      .split(/\s+/)
    const c = t.correctedLatency
    expect(corrected).toEqual([
      String(t.answered),
      ...[c.mean, c.stddev, c.p50, c.p90, c.p95, c.p99, c['p99.9'], c.max].map((us: number) => msText(us)),
    ])
    // A request due as the window closes while both connections are busy is never sent.
    expect(t.schedule.scheduled).toBe(200)
    expect(t.schedule.sent + t.schedule.unsent).toBe(200)
    expect(Object.keys(t.schedule.lateness)).toEqual([
      'mean',
      'stddev',
      'p50',
      'p90',
      'p95',
      'p99',
      'p99.9',
      'max',
    ])
    expect(t.connect.count).toBe(2)
    const runId = String(JSON.parse(readFileSync(out, 'utf8')).runId)
    const show = await cli(['runs', 'show', runId, '--db', db])
    expect(show.code).toBe(0)
    expect(show.stdout.match(schedule)?.[0]).toBe(r.stdout.match(schedule)?.[0])
    expect(show.stdout.match(connect)?.[0]).toBe(r.stdout.match(connect)?.[0])
  })

  it('exits 1 when a threshold fails', async () => {
    const cfg = join(dir, 'th.json')
    writeFileSync(
      cfg,
      JSON.stringify({
        version: 1,
        name: 'threshold',
        targets: [{ name: 'local', url: `${target.url}/x` }],
        load: { connections: 1, duration: 1 },
        cooldownSeconds: 0,
        thresholds: [{ metric: 'p50', max: 1 }],
      }),
    )
    const r = await cli(['run', cfg, '--db', join(dir, 'th.db')])
    expect(r.code).toBe(1)
    // Stored in µs, shown in ms with its unit: 1 µs is 0.001 ms.
    expect(r.stdout).toMatch(/threshold p50 ≤ 0\.001 ms on local: \d+\.\d\d ms, FAILED/)
  })

  const bad: [string, string, RegExp][] = [
    [
      'zero connections',
      yaml('  connections: 0\n  duration: 1'),
      /load\.connections: must be greater than 0/,
    ],
    ['negative connections', yaml('  connections: -4\n  duration: 1'), /load\.connections/],
    [
      'both duration and requests',
      yaml('  connections: 1\n  duration: 1\n  requests: 10'),
      /load\.duration: give either duration or requests, not both/,
    ],
    ['neither duration nor requests', yaml('  connections: 1'), /load\.duration: give either duration/],
    [
      'an unknown profile',
      yaml('  connections: 1\n  duration: 1\n  profile:\n    kind: zigzag'),
      /load\.profile\.kind: must be one of/,
    ],
    [
      'a phase share outside 0-1',
      yaml(
        '  connections: 1\n  profile:\n    kind: phases\n    phases:\n      - name: a\n        share: 2\n        duration: 1',
      ),
      /load\.profile\.phases\.0\.share/,
    ],
    [
      'a malformed URL',
      yaml('  connections: 1\n  duration: 1', 'http//nope'),
      /targets\.0\.url: is not a valid URL/,
    ],
    [
      'an unreachable host',
      yaml('  connections: 1\n  duration: 1', 'http://127.0.0.1:9/x'),
      /targets\.0\.url: cannot connect to 127\.0\.0\.1:9/,
    ],
    [
      'a host that does not resolve',
      yaml('  connections: 1\n  duration: 1', 'http://no-such-host.invalid/x'),
      /targets\.0\.url: host "no-such-host\.invalid" cannot be resolved/,
    ],
    ['invalid YAML', 'version: 1\nname: [oops\n', /is not valid YAML/],
  ]
  for (const [what, text, message] of bad) {
    it(`exits 2 on ${what}, naming the field, writing nothing`, async () => {
      const cfg = join(dir, `bad-${what.replace(/\W+/g, '-')}.yaml`)
      writeFileSync(cfg, text.replace('URL/x', `${target.url}/x`))
      const db = join(dir, `bad-${what.replace(/\W+/g, '-')}.db`)
      const r = await cli(['run', cfg, '--db', db])
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(message)
      expect(await runCount(db)).toBe(0)
    })
  }

  it('exits 2 on an unknown flag or a missing config, naming it', async () => {
    const a = await cli(['run', '--conections', '3'])
    expect(a.code).toBe(2)
    expect(a.stderr).toMatch(/unknown option --conections/)
    const b = await cli(['run'])
    expect(b.code).toBe(2)
    expect(b.stderr).toMatch(/missing CONFIG file/)
    const c = await cli(['nonsense'])
    expect(c.code).toBe(2)
    expect(c.stderr).toMatch(/unknown command "nonsense"/)
  })

  it('run --demo needs nothing else', async () => {
    const db = join(dir, 'demo.db')
    const out = join(dir, 'demo.json')
    const r = await cli(['run', '--demo', '--duration', '1', '--connections', '2', '--db', db, '--json', out])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/demo\s+1\s+\d+/)
    expect(JSON.parse(readFileSync(out, 'utf8')).targets[0].requests).toBeGreaterThan(0)
  })
})
