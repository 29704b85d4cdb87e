// A throwaway PostgreSQL on a port another process took between its choice and postgres binding
// it: it starts on another free port instead of failing (the pg stage failed on CI once so).
import { once } from 'node:events'
import { createServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { pgAvailableForTests } from '../testing/pg.ts'
import { runOk, startPostgres, type LocalPostgres } from './postgres.ts'

let pg: LocalPostgres | null = null
afterEach(async () => {
  await pg?.stop()
  pg = null
})

describe.skipIf(!pgAvailableForTests())('startPostgres', () => {
  it('starts on another free port when the one it chose is taken before postgres binds it', async () => {
    const squatter = createServer().listen(0, '127.0.0.1')
    await once(squatter, 'listening')
    const taken = (squatter.address() as { port: number }).port
    try {
      const lines: string[] = []
      pg = await startPostgres({ firstPort: taken, settings: { fsync: 'off' }, log: (l) => lines.push(l) })
      expect(pg.port).not.toBe(taken)
      expect(lines.some((l) => l.includes('the port was taken meanwhile'))).toBe(true)
      expect((await runOk([...pg.psqlArgv(), '-c', 'SELECT 1'], 'psql')).stdout.trim()).toBe('1')
    } finally {
      squatter.close()
    }
  })

  it('fails, naming the port, when the port asked for is taken', async () => {
    const squatter = createServer().listen(0, '127.0.0.1')
    await once(squatter, 'listening')
    const taken = (squatter.address() as { port: number }).port
    try {
      await expect(startPostgres({ port: taken, settings: { fsync: 'off' } })).rejects.toThrow(
        new RegExp(`could not start a local PostgreSQL[\\s\\S]*${taken}`),
      )
    } finally {
      squatter.close()
    }
  })
})
