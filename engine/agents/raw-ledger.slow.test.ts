// Agents' requests are the run's requests (issue 19, item 3), through the command a user types:
// with local agents (default --raw upload) every request is a `samples` row of the run when
// `cannonade run` returns; with --raw keep, `runs show` (text and --json) and every export say
// where each agent's raw rows are and how to bring them in (no export writes "0 samples" with exit
// 0), the report says the same, and `cannonade import ledger FILE --run ID` brings each in, once.
// Against a counting target.
import Database from 'better-sqlite3'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { main } from '../cli/main.ts'
import { buildReportHtml } from '../report/html.ts'
import { openDb } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { capturedCli } from '../testing/cli.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'

let target: CountingTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

interface Json {
  runId: number
  targets: { sent: number }[]
  distribution: { perAgent: { index: number; ledger: { path: string; rows: number } }[] }
}

/** A 2 s run of two local agents through the CLI; its summary and the data folder. */
async function agentsRun(raw: string[]): Promise<{ dir: string; json: Json; sent: number }> {
  target = await startTarget({ delayMs: 1 })
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-raw-ledger-'))
  const file = join(dir, 'run.json')
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      name: 'agents',
      targets: [{ name: 't', url: `${target.url}/x` }],
      load: { connections: 4, duration: 2 },
      cooldownSeconds: 0,
    }),
  )
  const { ctx, err } = capturedCli(join(dir, 'c.db'))
  const code = await main(['run', file, '--agents', '2', ...raw, '--json', join(dir, 's.json')], ctx)
  expect(code, err()).toBe(0)
  const json = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8')) as Json
  return { dir, json, sent: json.targets.reduce((n, t) => n + t.sent, 0) }
}

/** What the file holds for the run, read with plain SQL as a user would. */
function rowsOf(dir: string, runId: number): { rows: number; distinct: number } {
  const db = new Database(join(dir, 'c.db'), { readonly: true })
  try {
    const one = (sql: string) => db.prepare(sql).pluck().get(runId) as number
    return {
      rows: one('SELECT count(*) FROM samples WHERE run_id = ?'),
      distinct: one('SELECT count(DISTINCT seq) FROM samples WHERE run_id = ?'),
    }
  } finally {
    db.close()
  }
}

/** The run's report as HTML (what the PDF prints), from the command's database. */
function reportOf(dir: string, runId: number): string {
  const db = openDb(join(dir, 'c.db'), { readonly: true })
  try {
    return buildReportHtml(new HistoryStore(db), [runId])
  } finally {
    db.close()
  }
}

describe("agents' raw ledgers", () => {
  it('local agents, default --raw upload: every request is a samples row when the command returns', async () => {
    const { dir, json, sent } = await agentsRun([])
    expect(sent).toBeGreaterThan(0)
    expect(rowsOf(dir, json.runId)).toEqual({ rows: sent, distinct: sent })
  })

  it('--raw keep: runs show and every export say where they are; import ledger brings each in once', async () => {
    const { dir, json, sent } = await agentsRun(['--raw', 'keep'])
    const id = String(json.runId)
    const paths = json.distribution.perAgent.map((a) => a.ledger.path.slice(a.ledger.path.indexOf(':') + 1))
    expect(rowsOf(dir, json.runId).rows).toBe(0)
    expect(json.distribution.perAgent.reduce((n, a) => n + a.ledger.rows, 0)).toBe(sent)
    const cli = () => capturedCli(join(dir, 'c.db'))

    const show = cli()
    expect(await main(['runs', 'show', id], show.ctx)).toBe(0)
    expect(show.out()).toContain(`${sent.toLocaleString('en-US')} more are not in this database`)
    expect(show.out()).toContain(`cannonade import ledger FILE --run ${id}`)
    for (const p of paths) expect(show.out()).toContain(p)
    const showJson = cli()
    expect(await main(['runs', 'show', id, '--json'], showJson.ctx)).toBe(0)
    const ledger = (JSON.parse(showJson.out()) as { ledger: { elsewhere: { requests: number } } }).ledger
    expect(ledger.elsewhere.requests).toBe(sent)

    // The report's figures are whole (they came with the run); it says where the raw rows are.
    const report = reportOf(dir, json.runId)
    expect(report).toContain(`${sent.toLocaleString('en-US')} requests of this run are not in the database`)
    expect(report).toContain(`cannonade import ledger FILE --run ${id}`)
    for (const p of paths) expect(report).toContain(p)

    // No export passes for complete: CSV writes nothing, JSON and PostgreSQL say what they lack.
    const csv = cli()
    expect(await main(['export', 'csv', id, '--out', join(dir, 's.csv')], csv.ctx)).toBe(1)
    expect(csv.err()).toContain(`cannonade import ledger FILE --run ${id}`)
    expect(existsSync(join(dir, 's.csv'))).toBe(false)
    const js = cli()
    expect(await main(['export', 'json', id, '--out', join(dir, 'e.json')], js.ctx)).toBe(1)
    expect(js.err()).toContain(
      `${sent.toLocaleString('en-US')} requests of run ${id} are not in this database`,
    )
    expect(js.out()).toContain('samples it holds')

    for (const [i, p] of paths.entries()) {
      const imp = cli()
      expect(await main(['import', 'ledger', p, '--run', id], imp.ctx), imp.err()).toBe(0)
      expect(imp.out()).toContain(`imported agent ${json.distribution.perAgent[i]!.index}'s`)
    }
    const twice = cli()
    expect(await main(['import', 'ledger', paths[0]!, '--run', id], twice.ctx)).toBe(2)
    expect(twice.err()).toMatch(/agent \d's requests are already in run/)
    // The file now holds every request of the run, once, and the exports are whole.
    expect(rowsOf(dir, json.runId)).toEqual({ rows: sent, distinct: sent })
    const whole = cli()
    expect(await main(['export', 'csv', id, '--out', join(dir, 'w.csv')], whole.ctx)).toBe(0)
    expect(whole.out()).toContain(`wrote ${sent.toLocaleString('en-US')} samples of run ${id}`)
    const after = cli()
    expect(await main(['runs', 'show', id], after.ctx)).toBe(0)
    expect(after.out()).not.toContain('not in this database')
    expect(reportOf(dir, json.runId)).not.toContain('Raw requests')
  })
})
