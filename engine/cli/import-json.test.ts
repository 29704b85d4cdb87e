// `import json` of hostile files (issue 20, items 4 and 7): mutated copies of a real exported run,
// each a field the engine reads back, given a shape it does not write, and files that are not
// files. Each is exit 2 naming the field, and nothing is stored. Then the bounds on a run's name,
// tags and note at every entry point (a config, an import, the Api's runs:tag and runs:note).
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseArgs } from '../api/schemas.ts'
import { parseRunConfig } from '../config/load.ts'
import { exportJson } from '../exports/json.ts'
import { loadReportData, renderReportHtml } from '../report/index.ts'
import { openDb } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { capturedCli } from '../testing/cli.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { main } from './main.ts'

const dir = mkdtempSync(join(tmpdir(), 'cannonade-import-json-'))
const SOURCE = join(dir, 'source.db')
const DB = join(dir, 'target.db')
const EXPORTED = join(dir, 'run.json')
let lines: string[] = []

beforeAll(async () => {
  const src = openDb(SOURCE)
  const { runId } = insertFixtureRun(src, {
    samplesPerRound: 200,
    thresholds: [{ metric: 'p99', target: '*', max: 3000 }],
  })
  await exportJson(src, [runId], EXPORTED)
  src.close()
  openDb(DB).close()
  lines = readFileSync(EXPORTED, 'utf8').split('\n')
  mkdirSync(join(dir, 'folder'))
  spawnSync('mkfifo', [join(dir, 'fifo')])
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

type Record = { run: { [k: string]: unknown }; runTargets: { [k: string]: unknown }[]; [k: string]: unknown }

/** A copy of the exported file with its run record changed by `change`. */
function mutated(name: string, change: (r: Record) => void): string {
  const index = lines.findIndex((l) => l.endsWith('"samples":['))
  const record = JSON.parse(`${lines[index]!.replace(/^,/, '')}]}`) as Record
  change(record)
  const text = JSON.stringify(record)
  const copy = [...lines]
  copy[index] = `${text.slice(0, -2)}`
  const file = join(dir, `${name.replace(/[^a-z0-9]+/gi, '-')}.json`)
  writeFileSync(file, copy.join('\n'))
  return file
}

function runs(): number {
  const db = openDb(DB, { readonly: true })
  try {
    return db.prepare('SELECT count(*) FROM runs').pluck().get() as number
  } finally {
    db.close()
  }
}

async function importJson(file: string): Promise<{ code: number; out: string; err: string }> {
  const { ctx, out, err } = capturedCli(DB)
  const code = await main(['import', 'json', file], ctx)
  return { code, out: out(), err: err() }
}

const long = (n: number) => 'x'.repeat(n)

/** Mutations of a real exported run: the field the message must name, and the change. */
export const HOSTILE_IMPORTS: { field: string; change: (r: Record) => void }[] = [
  ...['not a date', '2025-13-45T00:00:00.000Z', '', 5, null].map((v) => ({
    field: 'run.startedAt',
    change: (r: Record) => void (r.run.startedAt = v),
  })),
  ...['yesterday', 7].map((v) => ({ field: 'run.endedAt', change: (r: Record) => void (r.run.endedAt = v) })),
  ...['x', 5, [], { requests: 'many' }].map((v) => ({
    field: 'run.generator',
    change: (r: Record) => void (r.run.generator = v),
  })),
  ...['x', {}, [{}], [{ metric: 'p99' }], [5]].map((v) => ({
    field: 'run.thresholds',
    change: (r: Record) => void (r.run.thresholds = v),
  })),
  ...['x', 5, {}, { agents: 'two' }, []].map((v) => ({
    field: 'run.distribution',
    change: (r: Record) => void (r.run.distribution = v),
  })),
  ...['x', 5, [], {}, { requests: 'many' }].map((v) => ({
    field: 'runTargets.0.summary',
    change: (r: Record) => void (r.runTargets[0]!.summary = v),
  })),
  ...['', long(201), 5, null].map((v) => ({
    field: 'run.name',
    change: (r: Record) => void (r.run.name = v),
  })),
  ...[Array.from({ length: 51 }, (_, i) => `t${i}`), [long(65)], [''], 'a', [5]].map((v) => ({
    field: 'run.tags',
    change: (r: Record) => void (r.run.tags = v),
  })),
  ...[long(10_001), 5, null].map((v) => ({
    field: 'run.note',
    change: (r: Record) => void (r.run.note = v),
  })),
  ...['weird', 'running', 5].map((v) => ({
    field: 'run.status',
    change: (r: Record) => void (r.run.status = v),
  })),
  ...['x', 5, null].map((v) => ({ field: 'run.config', change: (r: Record) => void (r.run.config = v) })),
  { field: 'run.correlationPrefix', change: (r) => void (r.run.correlationPrefix = '') },
  { field: 'runTargets.0.targetIndex', change: (r) => void (r.runTargets[0]!.targetIndex = 'a') },
  { field: 'series', change: (r) => void (r.series = { columns: ['x'], rows: [] }) },
  { field: 'sourceRunId', change: (r) => void (r.sourceRunId = 'one') },
]

describe('import json of a mutated export (issue 20, item 4)', () => {
  it('imports the unmutated file (the table starts from a good one)', async () => {
    const file = mutated('unchanged', () => {})
    const db = openDb(join(dir, 'fresh.db'))
    db.close()
    const { ctx, err } = capturedCli(join(dir, 'fresh.db'))
    expect(await main(['import', 'json', file], ctx), err()).toBe(0)
  })

  it.each(HOSTILE_IMPORTS.map((m, i) => ({ i, ...m })))(
    '#$i $field: exit 2 naming it, nothing stored',
    async (m) => {
      const before = runs()
      const r = await importJson(mutated(`m${m.i}`, m.change))
      expect(r.code, r.err).toBe(2)
      expect(r.err).toContain(m.field)
      expect(runs()).toBe(before)
    },
  )

  const files: { name: string; path: () => string; says: RegExp }[] = [
    { name: 'a FIFO', path: () => join(dir, 'fifo'), says: /is a FIFO/ },
    { name: '/dev/zero', path: () => '/dev/zero', says: /is a device/ },
    { name: 'a folder', path: () => join(dir, 'folder'), says: /is a folder/ },
    { name: 'a missing file', path: () => join(dir, 'missing.json'), says: /file not found/ },
    { name: 'an empty file', path: () => mutatedText('empty', ''), says: /not valid JSON/ },
    { name: 'not JSON', path: () => mutatedText('garbage', 'hello'), says: /not valid JSON/ },
    {
      name: 'a truncated export',
      path: () => mutatedText('cut', lines.slice(0, 3).join('\n')),
      says: /ends early/,
    },
  ]
  it.each(files)('import json of $name: exit 2, nothing stored, no hang', async (f) => {
    const before = runs()
    const r = await importJson(f.path())
    expect(r.code, r.err).toBe(2)
    expect(r.err).toMatch(f.says)
    expect(runs()).toBe(before)
  })

  afterAll(() => console.log(`hostile cases tried: ${HOSTILE_IMPORTS.length + files.length} (import json)`))
})

function mutatedText(name: string, text: string): string {
  const file = join(dir, `${name}.json`)
  writeFileSync(file, text)
  return file
}

/** Bounds on a run's name, tags and note: each entry point, its input, what the message names. */
export const BOUNDS: { entry: string; call: () => unknown; says: RegExp }[] = [
  ...[
    { what: 'name', cfg: { name: long(201) }, says: /name.*200/ },
    { what: 'empty name', cfg: { name: '' }, says: /name.*empty/ },
    {
      what: '51 tags',
      cfg: { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
      says: /tags.*at most 50 tags/,
    },
    { what: 'a long tag', cfg: { tags: [long(65)] }, says: /tags\.0.*64/ },
    {
      what: '100,000 tags',
      cfg: { tags: Array.from({ length: 100_000 }, (_, i) => `t${i}`) },
      says: /at most 50/,
    },
  ].map((c) => ({
    entry: `config ${c.what}`,
    call: () =>
      parseRunConfig({
        version: 1,
        name: 'n',
        targets: [{ name: 'a', url: 'http://127.0.0.1:1/' }],
        load: { connections: 1, duration: 1 },
        ...c.cfg,
      }),
    says: c.says,
  })),
  {
    entry: 'runs:tag 51 tags',
    call: () => parseArgs('runs:tag', [1, Array.from({ length: 51 }, (_, i) => `t${i}`)]),
    says: /at most 50 tags/,
  },
  {
    entry: 'runs:tag 100,000 tags',
    call: () => parseArgs('runs:tag', [1, Array(100_000).fill('t')]),
    says: /at most 50 tags/,
  },
  {
    entry: 'runs:tag a long tag',
    call: () => parseArgs('runs:tag', [1, [long(65)]]),
    says: /tags\[0\] must be at most 64 characters/,
  },
  {
    entry: 'runs:tag an empty tag',
    call: () => parseArgs('runs:tag', [1, ['']]),
    says: /tags\[0\] must not be empty/,
  },
  {
    entry: 'runs:note 10,001',
    call: () => parseArgs('runs:note', [1, long(10_001)]),
    says: /note must be at most 10,000 characters/,
  },
  {
    entry: 'runs:note 100,000',
    call: () => parseArgs('runs:note', [1, long(100_000)]),
    says: /note must be at most 10,000 characters/,
  },
  {
    entry: 'runs:list 51 tags',
    call: () => parseArgs('runs:list', [{ tags: Array(51).fill('t') }]),
    says: /at most 50 tags/,
  },
]

describe('bounds on names, tags and notes at every entry point (issue 20, item 7)', () => {
  it.each(BOUNDS)('$entry: refused with the field and limit named', (b) => {
    expect(b.call).toThrow(b.says)
  })
  it('at the limits, accepted', () => {
    expect(() => parseArgs('runs:tag', [1, Array.from({ length: 50 }, () => long(64))])).not.toThrow()
    expect(() => parseArgs('runs:note', [1, long(10_000)])).not.toThrow()
  })
  afterAll(() => console.log(`hostile cases tried: ${BOUNDS.length} (name, tag and note bounds)`))
})

describe('the report of a run stored before the bounds (issue 20, item 7)', () => {
  it('shows at most the bounded name, 50 tags and the bounded note, however long they are', () => {
    const db = openDb(':memory:')
    const { runId } = insertFixtureRun(db, { samplesPerRound: 50 })
    const many = Array.from({ length: 100_000 }, (_, i) => `tag-${i}`)
    db.prepare('UPDATE runs SET name = ?, tags = ?, note = ? WHERE id = ?').run(
      'N'.repeat(100_000),
      JSON.stringify(many),
      'W'.repeat(100_000),
      runId,
    )
    const html = renderReportHtml(loadReportData(new HistoryStore(db), [runId]), {})
    db.close()
    expect(html).toContain(`${'N'.repeat(199)}…`)
    expect(html).not.toContain('N'.repeat(200))
    expect(html).not.toContain('W'.repeat(10_000))
    expect(html).toContain('tag-49<')
    expect(html).not.toContain('tag-50<')
    expect(html).toContain('… 99,950 more')
  })
})
