// API arguments past a bound are bad input (400 over HTTP, exit 2 in the CLI), never a SQLite
// error (a 1,000-entry tag filter once reached the store and came back as a 500); and the store's
// list query takes the largest filter allowed as one JSON parameter.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDb, type Db } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { ApiError } from './errors.ts'
import { parseArgs } from './schemas.ts'
import { LIMITS } from '../config/limits.ts'
import type { Channel } from './channels.ts'

const many = (n: number, f: (i: number) => unknown = (i) => `t${i}`) =>
  Array.from({ length: n }, (_, i) => f(i))

describe('arguments past a bound', () => {
  it.each<[string, Channel, unknown[], RegExp]>([
    ['a 1,000-entry tag filter', 'runs:list', [{ tags: many(1000) }], /runs:list: query\.tags /],
    ['a tag filter entry of 10 kB', 'runs:list', [{ tags: ['x'.repeat(10_000)] }], /query\.tags\[0\]/],
    ['an empty tag in a filter', 'runs:list', [{ tags: [''] }], /query\.tags\[0\] must not be empty/],
    ['a target filter of 10 kB', 'runs:list', [{ target: 'x'.repeat(10_000) }], /query\.target/],
    ['a search of 10 kB', 'runs:list', [{ search: 'x'.repeat(10_000) }], /query\.search/],
    ['a page of a million', 'runs:list', [{ limit: 1e6 }], /query\.limit/],
    [
      'a sample filter target of 10 kB',
      'runs:samples',
      [1, { target: 'x'.repeat(10_000) }],
      /runs:samples: query\.target/,
    ],
    ['51 tags on a run', 'runs:tag', [1, many(51)], /runs:tag: tags must hold at most 50 tags/],
    [
      'a tag of 65 characters',
      'runs:tag',
      [1, ['x'.repeat(65)]],
      /runs:tag: tags\[0\] must be at most 64 characters/,
    ],
    [
      'a note of 20 kB',
      'runs:note',
      [1, 'x'.repeat(20_000)],
      /runs:note: note must be at most 10,000 characters/,
    ],
    [
      'a comparison of 1,001 runs',
      'runs:compare',
      [{ runIds: many(1001, (i) => i + 1) }],
      /runs:compare: query\.runIds/,
    ],
    ['an export of 1,001 runs', 'exports:json', [many(1001, (i) => i + 1)], /exports:json: runIds /],
    ['a report of 1,001 runs', 'reports:create', [many(1001, (i) => i + 1)], /reports:create: runIds /],
  ])('%s is bad input naming the argument', (_name, channel, args, message) => {
    let error: unknown
    try {
      parseArgs(channel, args)
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).code).toBe('bad-input')
    expect((error as ApiError).message).toMatch(message)
  })
})

describe('the list query with a large tag filter', () => {
  let db: Db
  beforeEach(() => {
    db = openDb(':memory:')
  })
  afterEach(() => db.close())

  it('answers the largest filter, matching runs that hold every tag of it', () => {
    const all = many(LIMITS.tags) as string[]
    // The tags column directly: a run may hold more tags than a filter names (imports, old runs).
    const a = insertFixtureRun(db, { name: 'a' })
    const b = insertFixtureRun(db, { name: 'b', seed: 2 })
    const setTags = db.prepare('UPDATE runs SET tags = ? WHERE id = ?')
    setTags.run(JSON.stringify([...all, ...many(500, (i) => `extra${i}`)]), a.runId)
    setTags.run(JSON.stringify(all.slice(1)), b.runId)
    const store = new HistoryStore(db)
    expect(store.listRuns({ tags: all, limit: 50, offset: 0 }).items.map((i) => i.runId)).toEqual([a.runId])
    // A tag given twice in the filter is still one tag.
    expect(store.listRuns({ tags: ['t0', 't0'], limit: 50, offset: 0 }).total).toBe(1)
    expect(store.listRuns({ tags: ['t1', 't5'], limit: 50, offset: 0 }).total).toBe(2)
  })
})
