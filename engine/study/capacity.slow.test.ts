// Capacity at a latency target against a target whose capacity the test sets: 4 workers that
// each serve a request in 100 ms (40 requests a second at most; past that, requests queue and
// latency grows without bound). A sweep of the rate over 10, 30 and 80 requests a second, two
// rounds each, with `slo: { p99: 1000 }`: 30 is the capacity (75 % busy, its p99 a few hundred
// ms), 80 breaks it (a queue growing 40 a second: seconds). Slow and few requests, so that what a
// busy machine adds (a stall of half a second was seen at 100 req/s) stays beside the truth. The
// study's results, the CLI's table, the CSV and the report all say so.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StudyResults } from '../api/types.ts'
import { studyTable } from '../cli/study.ts'
import { exportStudyCsv, STUDY_CSV_HEADER } from '../exports/study-csv.ts'
import { esc } from '../report/format.ts'
import { studySection } from '../report/study.ts'
import { openDb, type Db } from '../db/db.ts'
import { sweepConfig } from '../testing/config.ts'
import { tempDbPath } from '../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import { studyResults } from './results.ts'
import { runStudy } from './run-study.ts'

let target: CountingTarget
let db: Db
let dbPath: string
let studyId: number
let results: StudyResults

beforeAll(async () => {
  target = await startTarget({ workers: 4, delayMs: 100 })
  dbPath = tempDbPath()
  db = openDb(dbPath)
  const config = sweepConfig(
    `${target.url}/x`,
    { path: 'load.rate', values: [10, 30, 80], slo: { p99: 1000 } },
    {
      load: { connections: 16, maxConnections: 400, duration: 4, rate: 10 },
      rounds: 2,
      schedule: 'interleaved',
    },
  )
  studyId = (await runStudy(db, dbPath, config)).studyId
  results = studyResults(db, studyId)
}, 180_000)

afterAll(async () => {
  await target?.close()
})

describe('capacity at a latency target', () => {
  it('is the highest throughput under the target, with its interval, and names the rate that broke it', () => {
    expect(results.slo).toEqual({ metric: 'p99', ms: 1000 })
    const c = results.targets[0]!.capacity!
    const seen = results.targets[0]!.points.map(
      (p) => `${p.label}: ${p.throughput.toFixed(0)}/s p99 ${p.p99} µs`,
    )
    expect(c.label, seen.join('; ')).toBe('30')
    // The rate's throughput: what was sent, answered (within 10 %).
    expect(c.throughput!).toBeGreaterThan(27)
    expect(c.throughput!).toBeLessThan(33)
    expect(c.rounds).toBe(2)
    expect(c.interval![0]).toBeLessThanOrEqual(c.throughput!)
    expect(c.interval![1]).toBeGreaterThanOrEqual(c.throughput!)
    expect(c.latencyUs!).toBeLessThanOrEqual(1_000_000)
    expect(c.next?.label).toBe('80')
    expect(c.next!.latencyUs).toBeGreaterThan(1_000_000)
    // Each point says whether it met the target.
    expect(results.targets[0]!.points.map((p) => p.slo?.met)).toEqual([true, true, false])
  })

  it('is in the CLI table, the CSV and the report, in the same words and rows', async () => {
    const sentence = results.targets[0]!.capacity!.sentence
    expect(studyTable(results)).toContain(`capacity at the latency target: ${sentence}`)
    const out = join(dbPath, '..', 'study.csv')
    await exportStudyCsv(db, studyId, out)
    const [head, ...rows] = readFileSync(out, 'utf8').trim().split('\n')
    expect(head!.split(',')).toEqual(STUDY_CSV_HEADER)
    const col = (name: string) => STUDY_CSV_HEADER.indexOf(name)
    const cells = rows.map((r) => r.split(','))
    expect(cells.map((c) => [c[col('value')], c[col('slo_met')], c[col('capacity')]])).toEqual([
      ['10', 'yes', ''],
      ['30', 'yes', 'yes'],
      ['80', 'no', ''],
    ])
    expect(studySection(results, () => '#000')).toContain(esc(sentence))
  })
})
