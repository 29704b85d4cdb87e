// A scenario run's steps survive every export: CSV names them, JSON carries them to another
// database, and older JSON files without the column still import.
import { readFileSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemoServer, type DemoServer } from '../demo/server.ts'
import { openDb } from '../db/db.ts'
import { runConfig, tempDbPath } from '../testing/run-config.ts'
import { exportCsv, exportJson, importJson } from './index.ts'

let demo: DemoServer
beforeAll(async () => {
  demo = await startDemoServer()
})
afterAll(async () => {
  await demo.close()
})

describe('scenario steps in exports', () => {
  it('are named in CSV and kept through JSON export and import', async () => {
    const { summary, db, dbPath } = await runConfig({
      version: 1,
      name: 'steps export',
      targets: [
        {
          name: 'market',
          url: demo.url,
          steps: [
            {
              name: 'register',
              method: 'POST',
              path: '/users',
              body: '{"username":"u${iteration}","password":"p"}',
              expectStatus: 201,
            },
            {
              name: 'login',
              method: 'POST',
              path: '/login',
              body: '{"username":"u${iteration}","password":"p"}',
              capture: { token: { json: 'token' } },
            },
            { name: 'me', path: '/me', headers: { authorization: 'Bearer ${token}' } },
          ],
        },
      ],
      load: { connections: 1, requests: 30 },
      cooldownSeconds: 0,
    })
    const csvPath = `${dbPath}.csv`
    await exportCsv(db, summary.runId, { kind: 'samples' }, csvPath)
    const lines = readFileSync(csvPath, 'utf8').trim().split('\n')
    expect(lines[0]!.split(',').at(-1)).toBe('step')
    expect(lines.slice(1).map((l) => l.split(',').at(-1))).toEqual(
      Array.from({ length: 30 }, (_, i) => ['register', 'login', 'me'][i % 3]),
    )

    const jsonPath = `${dbPath}.json`
    await exportJson(db, [summary.runId], jsonPath)
    const other = openDb(tempDbPath())
    const imported = importJson(other, jsonPath)
    const steps = (d: typeof db, id: number) =>
      d.prepare('SELECT step FROM samples WHERE run_id = ? ORDER BY seq').pluck().all(id)
    expect(steps(other, imported.runIds[0]!)).toEqual(steps(db, summary.runId))

    // A file written before the step column existed: rows one column shorter, no step.
    const old = readFileSync(jsonPath, 'utf8')
      .replace('"db_us","step"', '"db_us"')
      .replace(/^(\[.*),(null|\d+)\](,?)$/gm, '$1]$3')
    const oldPath = `${dbPath}.old.json`
    writeFileSync(oldPath, old)
    const third = openDb(tempDbPath())
    const again = importJson(third, oldPath)
    expect(again.rows).toBe(30)
    expect(new Set(steps(third, again.runIds[0]!))).toEqual(new Set([null]))
  })
})
