// Native stacks (no Docker): the same server as a local process against a local PostgreSQL, and
// `down` from another process stopping only what was started: a recorded pid
// is signalled only while it still has the recorded start time.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { tempDbPath } from '../testing/run-config.ts'
import { isSame, readRecord, recordOf, writeRecord } from './native-state.ts'
import { freePort } from './postgres.ts'
import { Stacks, stackStateDir } from './stacks.ts'

describe('native stacks', () => {
  it('runs node-http as a local process against a local PostgreSQL; down from another process stops both', async () => {
    const stateDir = stackStateDir(tempDbPath())
    const stacks = new Stacks({ stateDir })
    const port = await freePort()
    const st = await stacks.up('node-http', { native: true, port, env: { POOL_SIZE: 4 } })
    const record = readRecord(stateDir, 'node-http')
    try {
      expect(st).toMatchObject({
        state: 'native',
        url: `http://127.0.0.1:${port}`,
        project: null,
        replicas: 1,
      })
      // A local process runs with whatever the machine has.
      expect(st.limits).toEqual({ cpus: null, memory: null })
      const ads = (await (await fetch(`${st.url}/ads?limit=3`)).json()) as unknown[]
      expect(ads.length).toBe(3)
      expect(record?.url).toBe(st.url)
      expect(record && isSame(record.server)).toBe(true)
      expect(record?.postgres && isSame(record.postgres)).toBe(true)
      // Another process (the app, a second terminal) sees it and finds its database.
      const other = new Stacks({ stateDir })
      expect((await other.status()).find((s) => s.name === 'node-http')).toMatchObject({ state: 'native' })
      expect(await other.databaseUrl('node-http')).toBe(record?.databaseUrl)
      await other.down('node-http')
    } finally {
      await stacks.close()
    }
    expect(record && isSame(record.server)).toBe(false)
    expect(record?.postgres && isSame(record.postgres)).toBe(false)
    expect(existsSync(record!.postgres!.dir)).toBe(false)
    expect(readRecord(stateDir, 'node-http')).toBeNull()
    await expect(fetch(`${st.url}/health`)).rejects.toThrow()
  }, 300_000)

  it('never signals a recorded pid that now belongs to another process', async () => {
    const stateDir = stackStateDir(tempDbPath())
    // A live process under the recorded pid, but not the one recorded: its start time differs.
    const stranger = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' })
    await once(stranger, 'spawn')
    try {
      const real = recordOf(stranger.pid!)!
      writeRecord(stateDir, 'node-http', {
        url: 'http://127.0.0.1:1',
        databaseUrl: 'postgres://x@127.0.0.1:1/x',
        server: { pid: stranger.pid!, started: `${real.started}0` },
        postgres: null,
      })
      const logs: string[] = []
      const stacks = new Stacks({ stateDir, onLog: (_s, l) => logs.push(l) })
      expect((await stacks.status()).find((s) => s.name === 'node-http')?.state).not.toBe('native')
      await stacks.down('node-http')
      expect(stranger.exitCode).toBeNull()
      expect(isSame(real)).toBe(true)
      expect(logs).toContain(`pid ${stranger.pid} is another process now; not signalled`)
      expect(readRecord(stateDir, 'node-http')).toBeNull()
    } finally {
      stranger.kill()
    }
  })
})
