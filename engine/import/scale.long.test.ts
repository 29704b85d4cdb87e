// Imports stay linear and bounded (issue 29, items 11, 17 and 18): 100,000 identical requests in a
// HAR, curl lines or an OpenAPI document, 100,000 static assets, 100,000 secret values or cookies
// are imported within a generous deadline (each took over a minute: their work grew with the
// square of the requests); `import json` of a file whose one line is 200 MB ends with its reason in
// a process of 1.5 GB of heap (it took 2.7 GB, joining and splitting the line at every 4 MB); and
// `import har|openapi|json` of a FIFO is refused at once instead of waiting for a writer for ever.
import { execFileSync } from 'node:child_process'
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CLI, spawnCollected } from '../testing/process.ts'
import { importScenario } from './index.ts'

const dir = mkdtempSync(join(tmpdir(), 'cannonade-import-scale-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const N = 100_000
const entry = (url: string, o: { mime?: string; headers?: [string, string][] } = {}) => ({
  request: { method: 'GET', url, headers: (o.headers ?? []).map(([name, value]) => ({ name, value })) },
  response: { status: 200, content: { mimeType: o.mime ?? 'application/json' } },
})
const har = (entries: unknown[]) => JSON.stringify({ log: { entries } })

describe(`${N.toLocaleString('en-US')} of anything imports in linear time`, () => {
  const CASES: [string, () => [Parameters<typeof importScenario>[0], string, { base?: string }]][] = [
    [
      'identical HAR requests',
      () => ['har', har(Array.from({ length: N }, () => entry('http://127.0.0.1:9/same'))), {}],
    ],
    [
      'identical curl lines',
      () => ['curl', Array.from({ length: N }, () => 'curl http://127.0.0.1:9/same').join('\n'), {}],
    ],
    [
      'OpenAPI operations',
      () => [
        'openapi',
        JSON.stringify({
          openapi: '3.0.0',
          paths: Object.fromEntries(
            Array.from({ length: N }, (_, i) => [`/p${i}`, { get: { operationId: 'same', responses: {} } }]),
          ),
        }),
        { base: 'http://127.0.0.1:9' },
      ],
    ],
    [
      'static assets and one call',
      () => [
        'har',
        har([
          entry('http://127.0.0.1:9/api'),
          ...Array.from({ length: N }, (_, i) =>
            entry(`http://127.0.0.1:9/a${i}.js`, { mime: 'text/javascript' }),
          ),
        ]),
        {},
      ],
    ],
    [
      'distinct secret query values in one request',
      () => [
        'har',
        har([entry(`http://127.0.0.1:9/x?${Array.from({ length: N }, (_, i) => `token=v${i}`).join('&')}`)]),
        {},
      ],
    ],
    [
      'cookies in one request',
      () => [
        'har',
        har([
          entry('http://127.0.0.1:9/c', {
            headers: Array.from({ length: N }, (_, i): [string, string] => ['Cookie', `c${i}=${i}`]),
          }),
        ]),
        {},
      ],
    ],
    [
      'requests to distinct sites',
      () => ['har', har(Array.from({ length: N }, (_, i) => entry(`http://h${i}.example/x`))), {}],
    ],
  ]
  for (const [what, make] of CASES)
    it(what, { timeout: 60_000 }, () => {
      const [kind, text, opts] = make()
      let made: ReturnType<typeof importScenario> | null = null
      try {
        made = importScenario(kind, [text], { ...opts, keepThirdParty: true })
      } catch (e) {
        // A source whose one request is past a config's bounds says so: that is an answer too.
        expect(String(e)).toMatch(/holds no request|left out|over|at most/)
        return
      }
      const steps = made.config.targets.reduce((n, t) => n + (t.steps?.length ?? 0), 0)
      expect(steps).toBeGreaterThan(0)
      expect(made.notes.length).toBeLessThanOrEqual(50)
    })
})

/** `cannonade ARGS` in a child process with a heap cap and a deadline: exit code, stderr. */
async function cli(args: string[], heapMb = 1500, ms = 60_000): Promise<{ code: number; stderr: string }> {
  const run = spawnCollected(process.execPath, [`--max-old-space-size=${heapMb}`, CLI, ...args], {
    CANNONADE_DATA_DIR: dir,
  })
  const timer = setTimeout(() => run.child.kill('SIGKILL'), ms)
  const r = await run.result
  clearTimeout(timer)
  return { code: r.code, stderr: r.stderr }
}

describe('files that are not what an import reads', () => {
  it(
    'import json of a file whose one line is 200 MB: refused with its reason, in 1.5 GB of heap',
    { timeout: 120_000 },
    async () => {
      const file = join(dir, 'line.json')
      const out = createWriteStream(file)
      const chunk = 'a'.repeat(1 << 20)
      for (let i = 0; i < 200; i++)
        if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()))
      await new Promise<void>((r) => out.end(r))
      const r = await cli(['import', 'json', file, '--db', join(dir, 'j.db')])
      expect(r.stderr).toMatch(/not valid JSON|not a Cannonade export/)
      expect(r.code).toBe(2)
    },
  )

  for (const kind of ['har', 'openapi', 'json'] as const)
    it(`import ${kind} of a FIFO: refused at once, naming it`, { timeout: 60_000 }, async () => {
      const fifo = join(dir, `${kind}.fifo`)
      execFileSync('mkfifo', [fifo])
      const args =
        kind === 'openapi'
          ? ['--base', 'http://127.0.0.1:9']
          : kind === 'json'
            ? ['--db', join(dir, 'f.db')]
            : []
      const r = await cli(['import', kind, fifo, ...args], 256, 20_000)
      expect(r.stderr).toMatch(/not a (regular )?file|a FIFO/)
      expect(r.code).toBe(2)
    })

  it('import har of /dev/zero and of a folder: refused', { timeout: 60_000 }, async () => {
    for (const path of ['/dev/zero', dir]) {
      const r = await cli(['import', 'har', path], 256, 20_000)
      expect([path, r.code, r.stderr]).toEqual([path, 2, expect.stringMatching(/is not a file/)])
    }
  })
})
