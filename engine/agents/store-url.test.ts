// Issue 20, item 8: a bad CANNONADE_STORE_URL is refused with a message naming the variable, before
// the run is created: no failed run is left behind.
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors.ts'
import { createEngine } from '../host/index.ts'
import { tempDbPath } from '../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'

let target: CountingTarget
const dbPath = tempDbPath()
beforeAll(async () => {
  target = await startTarget({ delayMs: 1 })
})
afterAll(async () => {
  await target.close()
  rmSync(dirname(dbPath), { recursive: true, force: true })
})

const BAD = [
  'not a url',
  'http://127.0.0.1:5432/db',
  'postgres://u@h:5432:99/db',
  'postgres://u:hunter2@h:5432:99/db',
  'mysql://u@h/db',
  'postgres//u@h/db',
]

describe(`a bad CANNONADE_STORE_URL (hostile cases tried: ${BAD.length * 2})`, () => {
  it.each(BAD.flatMap((u) => [[u, 'docker'] as const, [u, 'swarm'] as const]))(
    'refuses %j (agents on %s) naming the variable, and creates no run',
    async (url, on) => {
      const host = await createEngine({ dbPath, agentStoreUrl: url })
      try {
        const before = (await host.runs.list({})).total
        const err = await host.runs
          .start({
            version: 1,
            name: 'store url',
            targets: [{ name: 't', url: `${target.url}/x` }],
            load: { connections: 1, duration: 1 },
            cooldownSeconds: 0,
            agents: { on, count: 1 },
          })
          .catch((e: unknown) => e)
        expect(err).toBeInstanceOf(ApiError)
        expect((err as ApiError).message).toMatch(/^CANNONADE_STORE_URL is not a PostgreSQL URL/)
        expect((err as ApiError).message).not.toContain('hunter2')
        expect((await host.runs.list({})).total).toBe(before)
      } finally {
        await host.close()
      }
    },
  )
})
