// What studies plot, exported: the per-second CSV carries the target's own CPU and memory, its
// database connections and its app/db time (Server-Timing), and a study exports as one CSV with a
// row per swept value and target whose figures are the study page's. Against a target that sends
// a known Server-Timing and runs in this process (so a process monitor sees it), and resource
// rows whose per-second sums the test knows.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseRunConfig } from '../config/load.ts'
import { openDb } from '../db/db.ts'
import { resourceWriter } from '../store/resource-samples.ts'
import { studyResults } from '../study/results.ts'
import { runStudy } from '../study/run-study.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { tempDbPath } from '../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import { exportCsv, SERIES_CSV_HEADER } from './csv.ts'
import { exportStudyCsv, STUDY_CSV_HEADER } from './study-csv.ts'

let target: CountingTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

const rowsOf = (file: string, header: readonly string[]) => {
  const [head, ...lines] = readFileSync(file, 'utf8').trimEnd().split('\n')
  expect(head).toBe(header.join(','))
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [header[i]!, v])))
}

describe('the per-second CSV', () => {
  it("sums the target's instances per second and counts its database connections", async () => {
    const db = openDb(':memory:')
    const { runId } = insertFixtureRun(db, { targets: [{ name: 'api' }], samplesPerRound: 8000 })
    db.prepare("DELETE FROM resource_samples WHERE run_id = ? AND source <> 'generator'").run(runId)
    const write = resourceWriter(db, runId)
    const sample = (
      t: number,
      source: string,
      instance: string,
      cpu: number | null,
      mem: number | null,
      n?: number,
    ) =>
      write(t, {
        target: 'api',
        source,
        instance,
        cpuPercent: cpu,
        memoryBytes: mem,
        memoryLimitBytes: null,
        cpuLimit: null,
        state: null,
        ...(n !== undefined ? { connections: n } : {}),
      } as Parameters<typeof write>[1])
    // Second 0: instance a means 35 %, b 55 %: 90 % in all; memory 100 + 300 MB. Read between 0.7
    // and 1.2 s, they cover second 0 (a reading covers the second before it: sampleSecond).
    sample(0.7, 'docker', 'a', 30, 100e6)
    sample(1.2, 'docker', 'a', 40, 100e6)
    sample(0.7, 'docker', 'b', 50, 300e6)
    sample(1.2, 'docker', 'b', 60, 300e6)
    sample(1.0, 'postgres', 'active', null, null, 3)
    sample(1.0, 'postgres', 'idle', null, null, 2)
    const out = join(mkdtempSync(join(tmpdir(), 'cannonade-csv-')), 'series.csv')
    await exportCsv(db, runId, { kind: 'series' }, out)
    const rows = rowsOf(out, SERIES_CSV_HEADER)
    const first = rows.find((r) => r.t === '0' && r.round === '1')!
    expect(first).toMatchObject({
      target_cpu_percent: '90',
      target_memory_bytes: '400000000',
      db_connections: '5',
      db_active_connections: '3',
    })
    // The fixture's samples carry Server-Timing: app 60 % and db 30 % of each latency.
    expect(Number(first.server_app_mean_us)).toBeGreaterThan(0)
    expect(Number(first.server_db_mean_us)).toBeCloseTo(Number(first.server_app_mean_us) / 2, -2)
    // A second without monitor samples has empty cells, not zeros.
    expect(rows.find((r) => r.t === '1')!.target_cpu_percent).toBe('')
    db.close()
  })
})

describe('a study as one CSV', () => {
  it('has a row per value and target, with the study page figures and the target’s own', async () => {
    target = await startTarget({ delayMs: 5, serverTiming: true })
    const dbPath = tempDbPath()
    const db = openDb(dbPath)
    const config = parseRunConfig({
      version: 1,
      name: 'csv study',
      targets: [
        // The target runs in this process: the process monitor reads its CPU and memory.
        { name: 'a', url: `${target.url}/a`, monitor: { kind: 'process', pid: process.pid } },
        { name: 'b', url: `${target.url}/b` },
      ],
      load: { connections: 1, duration: 1 },
      cooldownSeconds: 0,
      sweep: { path: 'load.connections', values: [1, 2] },
    })
    const { studyId } = await runStudy(db, dbPath, config)
    const out = join(mkdtempSync(join(tmpdir(), 'cannonade-csv-')), 'study.csv')
    const res = await exportStudyCsv(db, studyId, out)
    const rows = rowsOf(out, STUDY_CSV_HEADER)
    expect(res.rows).toBe(4)
    expect(rows.map((r) => [r.value, r.target])).toEqual([
      ['1', 'a'],
      ['1', 'b'],
      ['2', 'a'],
      ['2', 'b'],
    ])
    // The same figures as the study page (one figure, one value).
    const page = studyResults(db, studyId)
    for (const r of rows) {
      const p = page.targets
        .find((t) => t.target === r.target)!
        .points.find((x) => String(x.runId) === r.run_id)!
      expect(Number(r.throughput)).toBeCloseTo(p.throughput, 2)
      expect(Number(r.p50_us)).toBe(p.p50)
      expect(Number(r.p99_us)).toBe(p.p99)
    }
    // The target's Server-Timing (app 1.5 ms, db 0.25 ms), and its own CPU where it was monitored.
    expect(rows.every((r) => r.server_app_mean_us === '1500' && r.server_db_mean_us === '250')).toBe(true)
    const monitored = rows.filter((r) => r.target === 'a')
    expect(monitored.every((r) => Number(r.target_memory_mean_bytes) > 10e6)).toBe(true)
    expect(monitored.every((r) => r.target_cpu_mean_percent !== '')).toBe(true)
    expect(rows.filter((r) => r.target === 'b').every((r) => r.target_cpu_mean_percent === '')).toBe(true)
    // The per-second CSV of one of its runs has the same app time, second by second.
    const series = join(mkdtempSync(join(tmpdir(), 'cannonade-csv-')), 'series.csv')
    await exportCsv(db, Number(rows[0]!.run_id), { kind: 'series' }, series)
    const seconds = rowsOf(series, SERIES_CSV_HEADER).filter((r) => r.server_app_mean_us !== '')
    expect(seconds.length).toBeGreaterThan(0)
    expect(seconds.every((r) => r.server_app_mean_us === '1500')).toBe(true)
    db.close()
  })
})
