// The web download route: files under <data dir>/exports and /reports only; everything else 403.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Api } from '../api/api.ts'
import { checkDownloadable } from '../api/files.ts'
import { startServer, type RunningServer } from './http.ts'

describe('downloads', () => {
  let root: string
  let dataDir: string
  let server: RunningServer
  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'cannonade-dl-'))
    dataDir = join(root, 'data')
    mkdirSync(join(dataDir, 'reports'), { recursive: true })
    mkdirSync(join(dataDir, 'exports'), { recursive: true })
    writeFileSync(join(dataDir, 'reports', 'r 1.pdf'), '%PDF-1.7 fake')
    writeFileSync(join(dataDir, 'exports', 'run-1-samples.csv'), 'a,b\n1,2\n')
    writeFileSync(join(dataDir, 'cannonade.db'), 'not for download')
    writeFileSync(join(root, 'outside.txt'), 'secret')
    symlinkSync(join(root, 'outside.txt'), join(dataDir, 'exports', 'link.csv'))
    // Only the route is under test: the Api is never called, its events are subscribed to.
    const unsubscribe = () => () => {}
    const host = new Proxy({}, { get: () => new Proxy({}, { get: () => unsubscribe }) }) as Api
    server = await startServer({ host, staticDir: root, dataDir })
  })
  afterEach(async () => {
    await server.close()
    rmSync(root, { recursive: true, force: true })
  })

  const get = (path: string, token = server.token) =>
    fetch(`${server.origin}/api/download?path=${encodeURIComponent(path)}&token=${encodeURIComponent(token)}`)

  it('serves a report as an attachment with its type', async () => {
    const res = await get(join(dataDir, 'reports', 'r 1.pdf'))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toContain('attachment; filename="r 1.pdf"')
    expect(await res.text()).toBe('%PDF-1.7 fake')
    const csv = await get(join(dataDir, 'exports', 'run-1-samples.csv'))
    expect(csv.headers.get('content-type')).toContain('text/csv')
  })

  it('refuses anything outside exports/ and reports/, links and .. included', async () => {
    for (const path of [
      join(dataDir, 'cannonade.db'),
      join(root, 'outside.txt'),
      join(dataDir, 'reports', '..', 'cannonade.db'),
      join(dataDir, 'exports', 'link.csv'),
      join(dataDir, 'exports'),
      join(root, 'missing.txt'),
      'reports/r 1.pdf',
      '/etc/passwd',
    ]) {
      const res = await get(path)
      expect(res.status, path).toBe(403)
      expect(await res.text()).not.toContain('secret')
    }
    expect((await get(join(dataDir, 'reports', 'gone.pdf'))).status).toBe(404)
  })

  it('refuses a download folder that is itself a link out of the data folder', async () => {
    // reports/ → the folder above the data folder: every file there would be a "report".
    rmSync(join(dataDir, 'reports'), { recursive: true })
    symlinkSync(root, join(dataDir, 'reports'))
    for (const path of [join(dataDir, 'reports', 'outside.txt'), join(root, 'outside.txt')]) {
      const res = await get(path)
      expect(res.status, path).toBe(403)
      expect(await res.text()).not.toContain('secret')
    }
    // A missing file under the linked folder learns nothing either (403, not 404).
    expect((await get(join(dataDir, 'reports', 'gone.pdf'))).status).toBe(403)
    // The other folder, a real one, still serves.
    expect((await get(join(dataDir, 'exports', 'run-1-samples.csv'))).status).toBe(200)
  })

  it('needs the token', async () => {
    expect((await get(join(dataDir, 'reports', 'r 1.pdf'), 'wrong')).status).toBe(401)
  })

  it('checks the same way for Electron (no server)', async () => {
    expect(await checkDownloadable(dataDir, join(dataDir, 'reports', 'r 1.pdf'))).toMatchObject({
      ok: true,
      name: 'r 1.pdf',
    })
    expect(await checkDownloadable(dataDir, join(dataDir, 'exports', 'link.csv'))).toMatchObject({
      ok: false,
      status: 403,
    })
  })
})
