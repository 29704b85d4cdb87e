// The secrets folder (issue 29, item 4): the one folder whose files a config may name as secrets,
// a setting of the engine host (settings.secretsDir, else CANNONADE_SECRETS_DIR). A relative one
// is refused in words; set, the host's monitors read a tokenFile in it and send it, and refuse one
// outside it (~/.vault-token) without sending anything.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors.ts'
import { startHostile, promMatrix, type HostileServer } from '../testing/hostile-http.ts'
import { tempDbPath } from '../testing/run-config.ts'
import { createEngine } from './index.ts'

const dir = mkdtempSync(join(tmpdir(), 'cannonade-secrets-folder-'))
let prom: HostileServer
beforeAll(async () => {
  mkdirSync(join(dir, 'secrets'))
  writeFileSync(join(dir, 'secrets', 'token'), 'in.the.folder\n')
  writeFileSync(join(dir, 'vault-token'), 'hvs.elsewhere\n')
  prom = await startHostile(() => ({
    body: promMatrix([{ metric: { job: 'a' }, values: [[Date.now() / 1000 - 2, '1']] }]),
  }))
})
afterAll(async () => {
  await prom.close()
  rmSync(dir, { recursive: true, force: true })
})

const spec = (tokenFile: string) => ({ kind: 'prometheus', url: prom.url, query: 'up', tokenFile })

describe('the secrets folder setting', () => {
  it('is an absolute path; a relative one is refused in words', async () => {
    const host = await createEngine({ dbPath: tempDbPath() })
    try {
      const err = await host.settings.set({ secretsDir: 'secrets' }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(ApiError)
      expect((err as Error).message).toMatch(/secretsDir must be an absolute path to a folder/)
      expect((await host.settings.set({ secretsDir: join(dir, 'secrets') })).secretsDir).toBe(
        join(dir, 'secrets'),
      )
    } finally {
      await host.close()
    }
  })

  it('monitors read a tokenFile in it and nowhere else', async () => {
    const host = await createEngine({ dbPath: tempDbPath() })
    try {
      const none = await host.monitor.test(spec(join(dir, 'secrets', 'token')))
      expect(none).toMatchObject({ ok: false, message: expect.stringMatching(/no folder is set/) })
      await host.settings.set({ secretsDir: join(dir, 'secrets') })
      const inside = await host.monitor.test(spec(join(dir, 'secrets', 'token')))
      expect(inside.ok).toBe(true)
      const outside = await host.monitor.test(spec(join(dir, 'vault-token')))
      expect(outside).toMatchObject({
        ok: false,
        message: expect.stringMatching(/outside the secrets folder/),
      })
      const sent = prom.received.map((r) => r.headers.authorization)
      expect(sent.length).toBeGreaterThan(0)
      expect(new Set(sent)).toEqual(new Set(['Bearer in.the.folder']))
    } finally {
      await host.close()
    }
  })
})
