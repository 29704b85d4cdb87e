// Two runs never share the load generator silently (issue 12, item 10). The database is the lock:
// a second run started while one is going, from the same engine (the app, web mode), another engine
// on the same database, or another `cannonade run`, is refused with a message naming the run that
// is going, unless the user says so explicitly; runs that did share say so in their summaries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ApiError } from '../api/errors.ts'
import type { RunEndedEvent } from '../api/types.ts'
import { createEngine, type EngineHost } from './index.ts'
import { openDb } from '../db/db.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { spawnCli, peek, waitUntil } from '../testing/process.ts'
import { tempDbPath } from '../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'

let target: CountingTarget
beforeAll(async () => {
  target = await startTarget({ delayMs: 1 })
})
afterAll(async () => {
  await target.close()
})

const config = (name: string, duration = 2, extra: Record<string, unknown> = {}) => ({
  version: 1,
  name,
  targets: [{ name: 't', url: `${target.url}/${name}` }],
  load: { connections: 2, duration },
  cooldownSeconds: 0,
  ...extra,
})

function ended(host: EngineHost, runId: number): Promise<RunEndedEvent> {
  return new Promise((resolve) => {
    const off = host.runs.onEnded((e) => {
      if (e.runId !== runId) return
      off()
      resolve(e)
    })
  })
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(ApiError)
  return err as ApiError
}

describe('a second run while one is going', () => {
  const seconds: {
    name: string
    /** Start the second run on the same database as `first`'s engine. */
    start: (first: EngineHost, dbPath: string) => Promise<{ runId: number }>
  }[] = [
    { name: 'from the same engine (the app, web mode)', start: (host) => host.runs.start(config('second')) },
    {
      name: 'from another engine on the same database',
      start: async (_h, dbPath) => {
        const other = await createEngine({ dbPath })
        try {
          return await other.runs.start(config('second'))
        } finally {
          await other.close()
        }
      },
    },
    {
      name: 'as a study (a sweep)',
      start: (host) =>
        host.runs.start(config('sweep', 1, { sweep: { path: 'load.connections', values: [1, 2] } })),
    },
  ]
  for (const s of seconds) {
    it(`${s.name}: refused, naming the run that is going`, async () => {
      const dbPath = tempDbPath()
      const host = await createEngine({ dbPath })
      try {
        const { runId } = await host.runs.start(config('first'))
        const end = ended(host, runId)
        const err = await refusal(s.start(host, dbPath))
        expect(err.code).toBe('conflict')
        expect(err.message).toMatch(
          new RegExp(`run ${runId} "first" \\(process ${process.pid}\\) is still going`),
        )
        expect(err.message).toMatch(/--allow-concurrent/)
        expect((await end).status).toBe('done')
        // Nothing of the refused run (or study) was recorded.
        expect((await host.runs.list()).total).toBe(1)
        expect(await host.studies.list()).toEqual([])
        // Once it has ended, the next run starts.
        const next = await host.runs.start(config('after', 1))
        expect((await ended(host, next.runId)).status).toBe('done')
      } finally {
        await host.close()
      }
    }, 30_000)
  }

  it('allowed explicitly: both runs say they shared the generator', async () => {
    const host = await createEngine({ dbPath: tempDbPath() })
    try {
      const a = await host.runs.start(config('a'))
      const endA = ended(host, a.runId)
      const b = await host.runs.start(config('b', 1), { allowConcurrent: true })
      await ended(host, b.runId)
      await endA
      const runA = await host.runs.get(a.runId)
      const runB = await host.runs.get(b.runId)
      expect(runA.generator).toMatchObject({ shared: true, sharedWith: [b.runId] })
      expect(runB.generator).toMatchObject({ shared: true, sharedWith: [a.runId] })
      expect(runA.generator.message).toMatch(new RegExp(`shared the load generator with run #${b.runId}`))
      expect(runB.generator.message).toMatch(new RegExp(`shared the load generator with run #${a.runId}`))
      // A run alone says nothing of the kind.
      const c = await host.runs.start(config('c', 1))
      await ended(host, c.runId)
      expect((await host.runs.get(c.runId)).generator).toMatchObject({
        shared: false,
        sharedWith: [],
        message: null,
      })
    } finally {
      await host.close()
    }
  }, 30_000)

  it('a stale row of a process that died meanwhile does not block a start', async () => {
    const dbPath = tempDbPath()
    const host = await createEngine({ dbPath })
    try {
      const db = openDb(dbPath)
      const { runId } = insertFixtureRun(db, { status: 'running' })
      db.prepare("UPDATE runs SET owner_pid = ?, owner_start = 'gone:1' WHERE id = ?").run(2 ** 31 - 2, runId)
      db.close()
      const next = await host.runs.start(config('after-stale', 1))
      expect((await ended(host, next.runId)).status).toBe('done')
    } finally {
      await host.close()
    }
  }, 30_000)

  it('two `cannonade run` on one database: the second exits 2 with the message; --allow-concurrent runs it', async () => {
    const dbPath = tempDbPath()
    const dir = dirname(dbPath)
    const file = (name: string, duration: number) => {
      const f = join(dir, `${name}.json`)
      writeFileSync(f, JSON.stringify(config(name, duration)))
      return f
    }
    // Long enough to still be going when the two others have started, on a loaded machine too.
    const first = spawnCli(['run', file('first', 10), '--db', dbPath, '--quiet'])
    const row = await waitUntil(
      () =>
        peek<{ id: number }>(
          dbPath,
          "SELECT id FROM runs WHERE status = 'running' AND worker_pid IS NOT NULL",
        ),
      20_000,
      'the first run to start',
    )
    const refused = await spawnCli(['run', file('second', 1), '--db', dbPath, '--quiet']).result
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(
      new RegExp(`run ${row.id} "first" \\(process ${first.child.pid}\\) is still going`),
    )
    const allowed = await spawnCli(['run', file('third', 1), '--db', dbPath, '--allow-concurrent']).result
    expect(allowed.code, allowed.stderr).toBe(0)
    expect(allowed.stdout).toMatch(new RegExp(`shared the load generator with run #${row.id}`))
    expect((await first.result).code).toBe(0)
  }, 60_000)
})
