// What the desktop app needs from the engine host: report progress as events (the app shows the
// stage, not only elapsed time), and secrets handed over explicitly (the app's engine process
// has none in its environment) reaching PostgreSQL when the URL carries no password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ReportProgressEvent } from '../api/types.ts'
import { withPassword } from '../pg/errors.ts'
import { pgAvailableForTests, startPg, type PgCluster } from '../testing/pg.ts'
import { createEngine, type EngineHost } from './index.ts'
import { openDb } from '../db/db.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { tempDbPath } from '../testing/run-config.ts'

describe('report progress events', () => {
  let host: EngineHost
  let runIds: number[]
  beforeAll(async () => {
    const dbPath = tempDbPath()
    const db = openDb(dbPath)
    runIds = [
      insertFixtureRun(db, { name: 'a', samplesPerRound: 200 }).runId,
      insertFixtureRun(db, { name: 'b', samplesPerRound: 200, seed: 7 }).runId,
    ]
    db.close()
    host = await createEngine({ dbPath })
  })
  afterAll(() => host.close())

  it('emits every stage of an HTML report, in order, for the runs it is about', async () => {
    const events: ReportProgressEvent[] = []
    const off = host.reports.onProgress((e) => events.push(e))
    const result = await host.reports.create(runIds, { format: 'html' })
    off()
    expect(result.path).toMatch(/\.html$/)
    expect(events.map((e) => e.stage)).toEqual(['loading data', 'building html', 'done'])
    for (const e of events) expect(e).toMatchObject({ type: 'report-progress', runIds, format: 'html' })
    const elapsed = events.map((e) => e.elapsedMs)
    expect([...elapsed].sort((a, b) => a - b)).toEqual(elapsed)
  })

  it('stops reporting to a listener that unsubscribed', async () => {
    const events: ReportProgressEvent[] = []
    const off = host.reports.onProgress((e) => events.push(e))
    off()
    await host.reports.create([runIds[0]!], { format: 'html' })
    expect(events).toEqual([])
  })
})

describe('withPassword (a stored secret for a URL without one)', () => {
  it.each([
    ['postgres://u@127.0.0.1:5432/db', 's3cret', 'postgres://u:s3cret@127.0.0.1:5432/db'],
    ['postgres://u:inurl@h/db', 's3cret', 'postgres://u:inurl@h/db'],
    ['postgres://u@h/db?password=q', 's3cret', 'postgres://u@h/db?password=q'],
    ['postgres://u@h/db', undefined, 'postgres://u@h/db'],
    ['postgres://u@h/db', 'p@ss:/?#', 'postgres://u:p%40ss%3A%2F%3F%23@h/db'],
    ['not a url', 's3cret', 'not a url'],
  ])('%s + %s → %s', (url, password, expected) => {
    expect(withPassword(url, password)).toBe(expected)
  })
})

describe.skipIf(!pgAvailableForTests())('secrets passed to the host explicitly', () => {
  let cluster: PgCluster
  const hosts: EngineHost[] = []
  beforeAll(async () => {
    cluster = await startPg({ durable: false })
  })
  afterAll(async () => {
    for (const h of hosts) await h.close()
    await cluster?.stop()
  })

  it('PGPASSWORD from EngineOptions.secrets logs in when the URL has no password; without it, refused', async () => {
    const noPassword = cluster.url.replace(`:${cluster.password}@`, '@')
    expect(noPassword).not.toContain(cluster.password)
    // The test process must not lend its own environment to the engine.
    expect(process.env.PGPASSWORD).toBeUndefined()
    let secrets: Record<string, string> = {}
    const host = await createEngine({ dbPath: tempDbPath(), secrets: () => secrets })
    hosts.push(host)
    const refused = await host.exports.pgTest({ url: noPassword })
    expect(refused.ok).toBe(false)
    expect(refused.message).not.toContain(cluster.password)
    // Read at each use: a secret set while the engine runs applies at once.
    secrets = { PGPASSWORD: cluster.password }
    const accepted = await host.exports.pgTest({ url: noPassword })
    expect(accepted).toMatchObject({ ok: true })
    expect(accepted.message).not.toContain(cluster.password)
  })
})
