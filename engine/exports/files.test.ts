import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors.ts'
import { openDb, type Db } from '../db/db.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { HistoryStore } from '../store/history-store.ts'
import { warningWriter } from '../store/warnings.ts'
import { exportCsv, SAMPLE_CSV_HEADER, SERIES_CSV_HEADER } from './csv.ts'
import { importJson } from './json-import.ts'
import { exportJson } from './json.ts'
import { exportJunit } from './junit.ts'

let dir: string
let db: Db

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cannonade-export-'))
  db = openDb(':memory:')
})
afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

async function rejection(p: Promise<unknown> | (() => unknown)): Promise<ApiError> {
  try {
    await (typeof p === 'function' ? p() : p)
  } catch (err) {
    if (err instanceof ApiError) return err
    throw err
  }
  throw new Error('expected an ApiError')
}

describe('exportCsv', () => {
  it('writes every sample with names spelled out', async () => {
    const { runId, prefix } = insertFixtureRun(db, {
      samplesPerRound: 30_000,
      targets: [{ name: 'a b', errorRate: 0.05 }],
    })
    const out = join(dir, 'samples.csv')
    const res = await exportCsv(db, runId, { kind: 'samples' }, out)
    expect(res).toMatchObject({ runIds: [runId], rows: 30_000, path: out })
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n')
    expect(lines).toHaveLength(30_001)
    expect(lines[0]).toBe(SAMPLE_CSV_HEADER.join(','))
    expect(lines[43]).toMatch(new RegExp(`^${prefix}-0000000042,42,a b,1,main,`))
    expect(lines.some((l) => /,timeout,|,status,|,reset,/.test(l))).toBe(true)
    expect(readdirSync(dir)).toEqual(['samples.csv'])
  })

  it('writes the series with one column per error kind and status class', async () => {
    const { runId } = insertFixtureRun(db, { samplesPerRound: 20_000 })
    const out = join(dir, 'series.csv')
    const res = await exportCsv(db, runId, { kind: 'series' }, out)
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n')
    expect(lines[0]).toBe(SERIES_CSV_HEADER.join(','))
    expect(lines).toHaveLength(res.rows + 1)
    const cols = lines[1]?.split(',') ?? []
    expect(cols).toHaveLength(SERIES_CSV_HEADER.length)
    const requests = lines.slice(1).reduce((s, l) => s + Number(l.split(',')[5]), 0)
    expect(requests).toBe(40_000)
  })

  it('writes a row per instance and second after its target’s row, adding up to it', async () => {
    const { runId } = insertFixtureRun(db, {
      rounds: 2,
      targets: [{ name: 'cluster', instances: 3 }, { name: 'single' }],
    })
    const out = join(dir, 'instances.csv')
    const res = await exportCsv(db, runId, { kind: 'series' }, out)
    const [head, ...lines] = readFileSync(out, 'utf8').trimEnd().split('\n')
    expect(lines).toHaveLength(res.rows)
    const col = (name: string) => head!.split(',').indexOf(name)
    const rows = lines.map((l) => l.split(','))
    const targetRows = rows.filter((r) => r[col('instance')] === '')
    const instanceRows = rows.filter((r) => r[col('instance')] !== '')
    // Stored per instance (resource_samples), exported per instance: 3 a second for the cluster.
    const stored = db
      .prepare("SELECT count(*) FROM resource_samples WHERE run_id = ? AND target = 'cluster'")
      .pluck()
      .get(runId) as number
    expect(instanceRows).toHaveLength(stored)
    expect(new Set(instanceRows.map((r) => r[col('instance')]))).toEqual(
      new Set(['pid 4242', 'pid 4243', 'pid 4244']),
    )
    expect(instanceRows.every((r) => r[0] === 'cluster' && r[col('requests')] === '')).toBe(true)
    for (const t of targetRows.filter((r) => r[0] === 'cluster')) {
      const own = instanceRows.filter(
        (r) => r[col('round')] === t[col('round')] && r[col('t')] === t[col('t')],
      )
      expect(own).toHaveLength(3)
      const sum = own.reduce((s, r) => s + Number(r[col('target_cpu_percent')]), 0)
      expect(sum).toBeCloseTo(Number(t[col('target_cpu_percent')]), 0)
      const mem = own.reduce((s, r) => s + Number(r[col('target_memory_bytes')]), 0)
      expect(Math.abs(mem - Number(t[col('target_memory_bytes')]))).toBeLessThanOrEqual(3)
    }
  })

  it('refuses an unknown run and an unwritable path without leaving files', async () => {
    expect((await rejection(exportCsv(db, 77, {}, join(dir, 'x.csv')))).message).toBe('run 77 does not exist')
    const { runId } = insertFixtureRun(db)
    const err = await rejection(exportCsv(db, runId, {}, join(dir, 'missing', 'x.csv')))
    expect(err).toMatchObject({ code: 'bad-input', field: 'out' })
    expect(readdirSync(dir)).toEqual([])
  })
})

describe('exportJson / importJson', () => {
  it('round-trips whole runs into another database with new ids', async () => {
    const a = insertFixtureRun(db, {
      rounds: 2,
      samplesPerRound: 3000,
      tags: ['x'],
      note: 'n',
      thresholds: [{ metric: 'p99', target: '*', max: 3000 }],
    })
    const b = insertFixtureRun(db, {
      seed: 5,
      targets: [{ name: 'solo' }],
      startedAt: '2025-02-01T00:00:00.000Z',
    })
    // Its monitors' failures travel with the run.
    const warnings = warningWriter(db, a.runId)
    const t0 = Date.parse('2025-01-01T12:00:00.000Z')
    warnings.setT0(t0)
    const monitor = {
      kind: 'monitor',
      field: 'targets.0.monitor',
      target: 'java-jetty',
      source: 'docker',
    } as const
    warnings.record({ ...monitor, message: 'container x: no such container', stopped: true }, t0 - 200)
    warnings.record({ ...monitor, message: 'stats stream of x: reset', stopped: false }, t0 + 5000)
    warnings.record({ ...monitor, message: 'stats stream of x: reset', stopped: false }, t0 + 9000)
    const file = join(dir, 'runs.json')
    const res = await exportJson(db, [a.runId, b.runId], file)
    expect(res.rows).toBe(12_000 + 1000)
    expect((): unknown => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow()

    const other = openDb(':memory:')
    insertFixtureRun(other, { seed: 99 }) // so that ids differ
    const imported = importJson(other, file)
    expect(imported.sourceRunIds).toEqual([a.runId, b.runId])
    expect(imported.runIds).not.toContain(a.runId)
    const src = new HistoryStore(db)
    const dst = new HistoryStore(other)
    for (const [i, id] of imported.runIds.entries()) {
      const from = src.getRun(imported.sourceRunIds[i] ?? 0)
      const to = dst.getRun(id)
      expect({ ...to, runId: 0 }).toEqual({ ...from, runId: 0 })
      if (from.runId === a.runId)
        expect(to.warnings).toMatchObject([
          { message: 'container x: no such container', t: -0.2, count: 1, stopped: true },
          { message: 'stats stream of x: reset', t: 5, count: 2, stopped: false },
        ])
      expect(dst.series(id)).toEqual(src.series(from.runId))
      expect(dst.resources(id)).toEqual(src.resources(from.runId))
      expect(dst.samples(id, { limit: 10_000 })).toEqual(src.samples(from.runId, { limit: 10_000 }))
    }
    const err = await rejection(() => importJson(other, file))
    expect(err.code).toBe('conflict')
    expect(err.message).toMatch(
      new RegExp(`is already in this database as run ${imported.runIds[0]}; nothing was imported`),
    )
    expect(dst.listRuns().total).toBe(3)
    other.close()
  })

  it('refuses to import a run into the database it came from', async () => {
    const a = insertFixtureRun(db)
    const file = join(dir, 'runs.json')
    await exportJson(db, [a.runId], file)
    expect((await rejection(() => importJson(db, file))).message).toMatch(
      new RegExp(`already in this database as run ${a.runId}`),
    )
  })

  it('reads a reformatted (pretty-printed) export too', async () => {
    const a = insertFixtureRun(db, { samplesPerRound: 50 })
    const file = join(dir, 'runs.json')
    await exportJson(db, [a.runId], file)
    const pretty = join(dir, 'pretty.json')
    writeFileSync(pretty, JSON.stringify(JSON.parse(readFileSync(file, 'utf8')), null, 2))
    const other = openDb(':memory:')
    expect(importJson(other, pretty).rows).toBe(100)
    other.close()
  })

  it('a truncated or broken file imports nothing and says where', async () => {
    const a = insertFixtureRun(db, { samplesPerRound: 500 })
    const file = join(dir, 'runs.json')
    await exportJson(db, [a.runId], file)
    const text = readFileSync(file, 'utf8')
    const cut = join(dir, 'cut.json')
    writeFileSync(cut, text.slice(0, text.length / 2).replace(/\n[^\n]*$/, '\n'))
    const other = openDb(':memory:')
    expect((await rejection(() => importJson(other, cut))).message).toMatch(
      /cut.json: line \d+: the file ends early/,
    )
    const broken = join(dir, 'broken.json')
    writeFileSync(broken, text.replace('"status":"done"', '"status":"dunno"'))
    expect((await rejection(() => importJson(other, broken))).message).toMatch(
      /broken.json: line 2: run.status/,
    )
    expect(new HistoryStore(other).listRuns().total).toBe(0)
    expect((await rejection(() => importJson(other, join(dir, 'nope.json')))).message).toMatch(
      /file not found/,
    )
    other.close()
  })

  it('refuses running runs and unknown ids before writing', async () => {
    const a = insertFixtureRun(db, { status: 'running' })
    expect((await rejection(exportJson(db, [a.runId], join(dir, 'x.json')))).code).toBe('conflict')
    expect((await rejection(exportJson(db, [5000], join(dir, 'x.json')))).code).toBe('not-found')
    expect(existsSync(join(dir, 'x.json'))).toBe(false)
  })
})

describe('exportJunit', () => {
  it('one testcase per threshold and target, failures with actual vs limit', async () => {
    const { runId } = insertFixtureRun(db, {
      thresholds: [
        { metric: 'p99', target: '*', max: 1_000_000 },
        { metric: 'throughput', target: 'node-http', min: 1e9 },
      ],
    })
    const out = join(dir, 'junit.xml')
    const res = await exportJunit(db, runId, out)
    const xml = readFileSync(out, 'utf8')
    expect(res).toMatchObject({ rows: 4, failures: 1 })
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="cannonade run \d+: fixture run" tests="4" failures="1"/,
    )
    expect(xml).toContain('<testcase classname="cannonade.java-jetty" name="p99 ≤ 1000 ms" time="0"/>')
    expect(xml).toMatch(
      /<testcase classname="cannonade.node-http" name="throughput ≥ 1000000000 req\/s" time="0">\n\s+<failure type="threshold" message="throughput = \d+\.\d req\/s, limit ≥ 1000000000 req\/s">/,
    )
    expect(xml).toContain('<testcase classname="cannonade.run" name="run completed" time="0"/>')
  })

  it('a failed run is a failing test case', async () => {
    const { runId } = insertFixtureRun(db, { status: 'failed' })
    db.prepare("UPDATE runs SET error = 'target <down> & out' WHERE id = ?").run(runId)
    const out = join(dir, 'junit.xml')
    expect((await exportJunit(db, runId, out)).failures).toBe(1)
    expect(readFileSync(out, 'utf8')).toContain('message="run failed: target &lt;down&gt; &amp; out"')
  })
})
