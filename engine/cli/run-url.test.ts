// A URL is enough (issue 28, Must 9): `cannonade run URL` with wrk's and curl's short options runs a
// one-target config, sends what the options say (the server records it), stores the run like any
// other, and `--save` writes the config a file run takes back; bad options are exit 2 naming them.
import { mkdtempSync, readFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { runCommand } from '../testing/cli.ts'
import { openDb } from '../db/db.ts'

let server: http.Server
let url = ''
const seen: { method: string; header: string | undefined; other: string | undefined; body: string }[] = []

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      seen.push({
        method: req.method!,
        header: req.headers['x-a'] as string,
        other: req.headers['x-b'] as string,
        body,
      })
      res.end('ok')
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/things?x=1`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

describe('cannonade run URL', () => {
  it('runs -n requests of -m with -H headers and a -b body, and --save writes the config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-url-'))
    const db = join(dir, 'c.db')
    const save = join(dir, 'run.yaml')
    const args = ['run', url, '-c', '2', '-n', '40', '-m', 'post', '-H', 'X-A: 1', '-H', 'x-b:  two words ']
    const r = await runCommand(db, [...args, '-b', '{"a":1}', '--save', save])
    expect(r.err).not.toMatch(/invalid|usage/)
    expect(r.code).toBe(0)
    expect(seen.filter((s) => s.method === 'POST').length).toBeGreaterThanOrEqual(40)
    expect(seen.every((s) => s.header === '1' && s.other === 'two words' && s.body === '{"a":1}')).toBe(true)
    const stored = openDb(db).prepare('SELECT config FROM runs').pluck().all() as string[]
    expect(stored.length).toBe(1)
    const config = JSON.parse(stored[0]!) as { targets: { url: string; method: string }[]; load: object }
    expect(config.targets[0]).toMatchObject({ url, method: 'POST' })
    expect(config.load).toMatchObject({ connections: 2, requests: 40 })
    const saved = parse(readFileSync(save, 'utf8')) as Record<string, unknown>
    expect(saved).toMatchObject({
      targets: [{ url, method: 'POST', headers: { 'X-A': '1', 'x-b': 'two words' }, body: '{"a":1}' }],
      load: { connections: 2, requests: 40 },
    })
    // The saved file runs as a config.
    const again = await runCommand(db, ['run', save])
    expect(again.code).toBe(0)
  })

  it('refuses what a URL run cannot be, naming the option (exit 2)', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'cannonade-url-')), 'c.db')
    for (const [args, words] of [
      [['-c', '0'], /-c: must be greater than 0/],
      [['-d', '1', '-n', '5'], /-d and -n/],
      [['-H', 'no colon'], /-H: "no colon" is not 'Name: value'/],
      [['-m', 'FETCH'], /-m: /],
      [['--rate', '-5'], /--rate: /],
      [['-x'], /unknown option -x/],
    ] as const) {
      const r = await runCommand(db, ['run', url, ...args])
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.err).toMatch(words)
    }
    const ftp = await runCommand(db, ['run', 'ftp://127.0.0.1/x'])
    expect(ftp.code).toBe(2)
    expect(ftp.err).toMatch(/URL: must start with http:\/\/ or https:\/\//)
    const withFile = await runCommand(db, ['run', 'some.yaml', '-m', 'POST'])
    expect(withFile.code).toBe(2)
    expect(withFile.err).toMatch(/--method: with a URL only/)
  })
})
