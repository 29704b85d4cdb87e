import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { figuresOf } from '../metrics/figures.ts'
import { resourceSummary } from '../metrics/resource-summary.ts'
import { msText } from '../metrics/units.ts'
import { openDb } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { insertFixtureRun, type FixtureOptions } from '../testing/fixtures.ts'
import type { CliContext } from './context.ts'
import { exportCommand } from './export.ts'
import { importCommand } from './import.ts'
import { runsCommand } from './runs.ts'

let dir: string
let dbPath: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cannonade-cli-runs-'))
  dbPath = join(dir, 'history.db')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function seed(opts: FixtureOptions = {}, path = dbPath): number {
  const db = openDb(path)
  try {
    return insertFixtureRun(db, opts).runId
  } finally {
    db.close()
  }
}

async function cli(
  command: (argv: string[], ctx: CliContext) => Promise<number>,
  argv: string[],
  path = dbPath,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  const out: string[] = []
  const err: string[] = []
  stdout.on('data', (c: Buffer) => out.push(c.toString()))
  stderr.on('data', (c: Buffer) => err.push(c.toString()))
  const code = await command(argv, { dbPath: path, stdout, stderr, isTTY: false })
  return { code, stdout: out.join(''), stderr: err.join('') }
}

describe('cannonade runs', () => {
  it('lists runs as an aligned table or JSON', async () => {
    const a = seed({ name: 'jetty vs node', tags: ['thesis'] })
    seed({ name: 'second', seed: 3, startedAt: '2025-01-02T00:00:00.000Z' })
    const { code, stdout } = await cli(runsCommand, ['list'])
    expect(code).toBe(0)
    const lines = stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+STARTED\s+DURATION\s+REQUESTS\s+TARGETS\s+NAME\s+TAGS$/)
    expect(lines[2]).toMatch(
      new RegExp(
        `^ ?${a}\\s+done\\s+2025-01-01 12:00:00Z\\s+\\S+\\s+2,000\\s+java-jetty, node-http\\s+jetty vs node\\s+thesis$`,
      ),
    )
    expect(lines[0]?.indexOf('STATUS')).toBe(lines[1]?.indexOf('done'))
    const json = await cli(runsCommand, ['list', '--json', '--tag', 'thesis'])
    expect(JSON.parse(json.stdout)).toMatchObject({ total: 1, items: [{ runId: a, name: 'jetty vs node' }] })
  })

  it('shows each target over its rounds: an "all" row and overRounds in --json, the same figures', async () => {
    const id = seed({ rounds: 3, roundNoise: 0.2 })
    const db = openDb(dbPath)
    const run = new HistoryStore(db).getRun(id)
    db.close()
    const { stdout } = await cli(runsCommand, ['show', String(id)])
    const json = JSON.parse((await cli(runsCommand, ['show', String(id), '--json'])).stdout) as {
      overRounds: {
        target: string
        rounds: number
        requests: number
        throughput: number
        latency: { p50: number }
      }[]
    }
    expect(json.overRounds.map((o) => [o.target, o.rounds])).toEqual([
      ['java-jetty', 3],
      ['node-http', 3],
    ])
    for (const over of run.overRounds) {
      const f = figuresOf(over)
      const l = over.latency
      // TARGET all TIME REQUESTS REQ/S MEAN SD P50 P90 P95 P99 P99.9 MAX ERRORS IN-FLIGHT
      const row = stdout.split('\n').find((line) => line.startsWith(`${over.target} `) && / all /.test(line))
      expect(row?.trim().split(/\s+/).slice(1), stdout).toEqual([
        'all',
        f.seconds.toFixed(1),
        String(f.requests),
        f.throughput.toFixed(1),
        ...[l.mean, l.stddev, l.p50, l.p90, l.p95, l.p99, l.p999, l.max].map(msText),
        String(f.failed),
        String(f.inflight),
      ])
      expect(json.overRounds.find((o) => o.target === over.target)).toMatchObject({
        requests: f.requests,
        throughput: Math.round(f.throughput * 100) / 100,
        latency: { p50: l.p50 },
      })
    }
    expect(stdout).toMatch(/^all: the target over its rounds: .* latency of every request of every round/m)
  })

  it('shows the resources per target and instance (text and --json), as stored', async () => {
    const id = seed({ rounds: 2, targets: [{ name: 'cluster', instances: 2 }, { name: 'single' }] })
    const db = openDb(dbPath)
    const store = new HistoryStore(db)
    const truth = resourceSummary(store.resources(id), store.series(id))
    db.close()
    const cluster = truth.find((t) => t.target === 'cluster')!
    expect(cluster.instances.map((i) => i.instance)).toEqual(['pid 4242', 'pid 4243'])
    const { stdout } = await cli(runsCommand, ['show', String(id)])
    const block = stdout.slice(stdout.indexOf('resources ('))
    const line = (first: string) =>
      block
        .split('\n')
        .find((l) => l.startsWith(first))
        ?.trim()
        .split(/\s{2,}/)
    expect(stdout).toContain("resources (mean / peak over each target's seconds under load):")
    expect(line('cluster ')).toEqual([
      'cluster',
      'sum of 2',
      cluster.sum.cpu!.mean.toFixed(1),
      cluster.sum.cpu!.peak.toFixed(1),
      (cluster.sum.memory!.mean / 2 ** 20).toFixed(1),
      (cluster.sum.memory!.peak / 2 ** 20).toFixed(1),
    ])
    const instanceRow = (name: string) =>
      block
        .split('\n')
        .find((l) => l.trim().startsWith(name))
        ?.trim()
        .split(/\s{2,}/)
    for (const i of cluster.instances)
      expect(instanceRow(i.instance)?.slice(1, 3), stdout).toEqual([
        i.cpu!.mean.toFixed(1),
        i.cpu!.peak.toFixed(1),
      ])
    const json = JSON.parse((await cli(runsCommand, ['show', String(id), '--json'])).stdout) as {
      resources: {
        target: string
        cpuPercent: { mean: number }
        instances: { instance: string; cpuPercent: { peak: number } }[]
      }[]
    }
    const shown = json.resources.find((t) => t.target === 'cluster')!
    expect(shown.cpuPercent.mean).toBe(Number(cluster.sum.cpu!.mean.toFixed(1)))
    expect(shown.instances.map((i) => [i.instance, i.cpuPercent.peak])).toEqual(
      cluster.instances.map((i) => [i.instance, Number(i.cpu!.peak.toFixed(1))]),
    )
  })

  it('shows a run with latencies in ms (2 decimals) and thresholds', async () => {
    const id = seed({ thresholds: [{ metric: 'p99', target: '*', max: 1000 }] })
    const { code, stdout } = await cli(runsCommand, ['show', String(id)])
    expect(code).toBe(0)
    expect(stdout).toMatch(new RegExp(`^run ${id}  fixture run  \\(done\\)`))
    expect(stdout).toMatch(
      /TARGET\s+ROUND\s+TIME s\s+REQUESTS\s+REQ\/S\s+MEAN ms\s+SD ms\s+P50 ms\s+P90 ms\s+P95 ms\s+P99 ms\s+P99\.9 ms\s+MAX ms\s+ERRORS\s+IN FLIGHT/,
    )
    expect(stdout).toMatch(/java-jetty\s+1\s+\d+\.\d\s+1000\s+\d+\.\d(\s+\d+\.\d\d){8}\s+\d+\s+0/)
    // The limit as entered (1000 µs = 1 ms), the actual value in the same unit.
    expect(stdout).toMatch(/thresholds: FAILED\nthreshold p99 ≤ 1 ms on java-jetty: \d+\.\d\d ms, FAILED/)
    const json = JSON.parse((await cli(runsCommand, ['show', String(id), '--json'])).stdout) as {
      runId: number
      targets: unknown[]
    }
    expect(json.runId).toBe(id)
    expect(json.targets).toHaveLength(2)
  })

  it('deletes a run', async () => {
    const id = seed()
    expect(await cli(runsCommand, ['delete', String(id)])).toMatchObject({
      code: 0,
      stdout: `deleted run ${id}\n`,
    })
    expect((await cli(runsCommand, ['show', String(id)])).stderr).toBe(
      `cannonade: run ${id} does not exist\n`,
    )
  })

  it('bad input exits 2 naming the argument', async () => {
    const cases: [string[], RegExp][] = [
      [['show'], /missing ID/],
      [['show', 'abc'], /ID "abc" is not a run id/],
      [['show', '42'], /run 42 does not exist/],
      [['delete', '0'], /ID "0" is not a run id/],
      [['list', '--bogus'], /unknown option --bogus/],
      [['list', '--status', 'weird'], /--status must be one of/],
      [['frobnicate'], /unknown subcommand "frobnicate"/],
      [[], /missing subcommand/],
    ]
    for (const [argv, message] of cases) {
      const r = await cli(runsCommand, argv)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.stderr, argv.join(' ')).toMatch(message)
    }
  })
})

describe('cannonade export / import', () => {
  it('exports csv, json and junit files and imports json into another database', async () => {
    const id = seed({ thresholds: [{ metric: 'errorRate', target: '*', max: 0.5 }] })
    const csv = join(dir, 'samples.csv')
    expect(await cli(exportCommand, ['csv', String(id), '--out', csv])).toMatchObject({
      code: 0,
      stdout: `wrote 2,000 samples of run ${id} to ${csv}\n`,
    })
    expect(readFileSync(csv, 'utf8').split('\n')[0]).toMatch(/^correlation_id,seq,target/)
    const series = join(dir, 'series.csv')
    expect((await cli(exportCommand, ['csv', String(id), '--series', '--out', series])).code).toBe(0)
    const junit = join(dir, 'junit.xml')
    expect(await cli(exportCommand, ['junit', String(id), '--out', junit])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/3 test cases \(0 failing\)/) as unknown,
    })
    const json = join(dir, 'runs.json')
    expect((await cli(exportCommand, ['json', String(id), '--out', json])).code).toBe(0)
    const other = join(dir, 'other.db')
    seed({ seed: 8 }, other)
    const imported = await cli(importCommand, ['json', json], other)
    expect(imported).toMatchObject({
      code: 0,
      stdout: `imported run ${id} as run 2 (2,000 samples) from ${json}\n`,
    })
    const again = await cli(importCommand, ['json', json], other)
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(/already in this database as run 2; nothing was imported/)
  })

  it('bad input exits 2 naming the argument', async () => {
    const id = seed()
    const cases: [string[], RegExp][] = [
      [['csv', String(id)], /--out FILE is required/],
      [['csv', '--out', 'x.csv'], /missing ID/],
      [['csv', 'x', '--out', 'x.csv'], /ID "x" is not a run id/],
      [['csv', '1', '2', '--out', 'x.csv'], /takes one ID/],
      [['json', '999', '--out', join(dir, 'x.json')], /run 999 does not exist/],
      [['pg', String(id)], /--url postgres:\/\/.* is required/],
      [['pg', String(id), '--url', 'mysql://u:secret@h/db'], /url must start with postgres:\/\//],
      [['pg', '999', '--url', 'postgres://u:secret@127.0.0.1:1/db'], /run 999 does not exist/],
      [['xml', '1'], /unknown kind "xml"/],
      [['csv', String(id), '--out', 'x.csv', '--frob'], /unknown option --frob/],
    ]
    for (const [argv, message] of cases) {
      const r = await cli(exportCommand, argv)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.stderr, argv.join(' ')).toMatch(message)
      expect(r.stderr).not.toContain('secret')
    }
    expect(await cli(importCommand, ['json'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/missing FILE/) as unknown,
    })
    expect(await cli(importCommand, ['json', join(dir, 'nope.json')])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/file not found/) as unknown,
    })
  })

  it('an unreachable PostgreSQL exits 1 without echoing the password', async () => {
    const id = seed()
    const r = await cli(exportCommand, ['pg', String(id), '--url', 'postgres://u:hunter2@127.0.0.1:1/db'])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(
      /cannot reach PostgreSQL at 127.0.0.1:1: connection refused .*postgres:\/\/u:\*\*\*@127.0.0.1:1\/db/,
    )
    expect(r.stderr).not.toContain('hunter2')
  })
})
