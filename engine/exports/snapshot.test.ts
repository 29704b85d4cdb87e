// Exports read one snapshot (issue 12, item 7): a delete or prune committed by another process while
// an export is under way changes nothing of what it writes, and a run that is still running is
// refused with a message, by every kind of export. The other process is the real command, run
// between two chunks of the export (from its progress callback), so the race always happens.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors.ts'
import { openDb } from '../db/db.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { CHUNK_ROWS } from '../store/export-read.ts'
import { CLI } from '../testing/process.ts'
import { exportCsv, exportJson, exportJunit, exportPg } from './index.ts'

function other(args: string[]): void {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000 })
  if (r.status !== 0) throw new Error(`cannonade ${args.join(' ')} failed: ${r.stderr}`)
}

const exports: {
  kind: string
  run: (
    db: ReturnType<typeof openDb>,
    runId: number,
    out: string,
    onRows: (n: number) => void,
  ) => Promise<number>
  lines: (text: string) => number
}[] = [
  {
    kind: 'CSV samples',
    run: async (db, runId, out, onRows) =>
      (await exportCsv(db, runId, { kind: 'samples', onRows }, out)).rows,
    lines: (text) => text.trimEnd().split('\n').length - 1,
  },
  {
    kind: 'JSON',
    run: async (db, runId, out, onRows) => (await exportJson(db, [runId], out, onRows)).rows,
    lines: (text) => text.split('\n').filter((l) => l.startsWith('[') || l.startsWith(',[')).length,
  },
]

const mutations: { name: string; args: (db: string, runId: number) => string[] }[] = [
  { name: 'deleted', args: (db, id) => ['runs', 'delete', String(id), '--db', db] },
  { name: 'pruned', args: (db, id) => ['runs', 'prune', String(id), '--db', db] },
]

describe('an export while another process changes the run', () => {
  for (const e of exports) {
    for (const m of mutations) {
      it(`${e.kind}: the run ${m.name} in another process mid-export, the file still holds every request`, async () => {
        const dir = mkdtempSync(join(tmpdir(), 'cannonade-snapshot-'))
        const dbPath = join(dir, 'cannonade.db')
        const db = openDb(dbPath)
        const { runId, samples } = insertFixtureRun(db, { samplesPerRound: Math.ceil(CHUNK_ROWS * 0.8) })
        expect(samples).toBeGreaterThan(CHUNK_ROWS)
        let changedAt = -1
        const out = join(dir, 'out')
        const rows = await e.run(db, runId, out, (n) => {
          if (changedAt >= 0) return
          other(m.args(dbPath, runId))
          changedAt = n
        })
        // The other process changed the run after the first chunk, before the last.
        expect(changedAt).toBeGreaterThan(0)
        expect(changedAt).toBeLessThan(samples)
        expect(db.prepare('SELECT count(*) FROM samples WHERE run_id = ?').pluck().get(runId)).toBe(0)
        expect(rows).toBe(samples)
        expect(e.lines(readFileSync(out, 'utf8'))).toBe(samples)
        db.close()
      })
    }
  }
})

describe('a run that is still running', () => {
  const kinds: {
    kind: string
    run: (db: ReturnType<typeof openDb>, runId: number, out: string) => Promise<unknown>
  }[] = [
    { kind: 'CSV samples', run: (db, id, out) => exportCsv(db, id, { kind: 'samples' }, out) },
    { kind: 'CSV series', run: (db, id, out) => exportCsv(db, id, { kind: 'series' }, out) },
    { kind: 'JSON', run: (db, id, out) => exportJson(db, [id], out) },
    { kind: 'JUnit', run: (db, id, out) => exportJunit(db, id, out) },
    // Refused before any connection is tried: the URL does not even have to answer.
    { kind: 'PostgreSQL', run: (db, id) => exportPg(db, [id], 'postgres://u:p@127.0.0.1:9/x') },
  ]
  for (const k of kinds) {
    it(`${k.kind}: refused with a message, nothing written`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cannonade-running-'))
      const db = openDb(join(dir, 'cannonade.db'))
      const { runId } = insertFixtureRun(db, { status: 'running' })
      const err = await k.run(db, runId, join(dir, 'out')).then(
        () => null,
        (e: unknown) => e,
      )
      expect(err).toBeInstanceOf(ApiError)
      expect((err as ApiError).code).toBe('conflict')
      expect((err as ApiError).message).toMatch(new RegExp(`run ${runId} is still running`))
      expect(() => readFileSync(join(dir, 'out'))).toThrow()
      db.close()
    })
  }
})
