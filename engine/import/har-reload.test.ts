// HAR import as a user means it (issue 28, Must 4), on HARs Chromium itself records: Playwright's
// recordHar on a local page that loads a style sheet, a script, an image and two fetches, loaded,
// reloaded and visited again. The reloads send conditional headers (the server answers 304) and
// the browser answers some requests from its cache or memory (the server never sees them). The
// import drops the conditional headers (unless asked to keep them), leaves the cached entries out
// and lists them; its steps are exactly the requests the server saw, and the config it makes runs
// against the same server with 0 errors.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromium } from 'playwright-core'
import { runConfig } from '../testing/run-config.ts'
import { importScenario } from './index.ts'

const PAGE = `<!doctype html><html><head><link rel="stylesheet" href="/app.css"><script src="/app.js"></script></head>
<body><img src="/logo.svg"><script>
fetch('/api/data').then((r) => r.json()).then(() => fetch('/api/items')).then((r) => r.json()).then((d) => { document.title = d.title })
</script></body></html>`

/** path → [content type, body, cache-control, etag] */
const FILES: Record<string, [string, string, string, string]> = {
  '/': ['text/html', PAGE, 'no-cache', '"page-1"'],
  '/app.css': ['text/css', 'body { margin: 0 }', 'max-age=3600', '"css-1"'],
  '/app.js': ['text/javascript', 'window.x = 1', 'no-cache', '"js-1"'],
  '/logo.svg': ['image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"/>', 'max-age=3600', '"svg-1"'],
  '/api/data': ['application/json', '{"n":1}', 'no-cache', '"data-1"'],
  '/api/items': ['application/json', '{"title":"items"}', 'max-age=3600', '"items-1"'],
}

let server: http.Server
let base = ''
/** Every request the server got: its path and whether it carried a conditional header. */
let seen: { path: string; conditional: boolean; correlated: boolean }[] = []

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    const conditional =
      req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined
    seen.push({ path, conditional, correlated: req.headers['x-correlation-id'] !== undefined })
    const file = FILES[path]
    if (!file) {
      res.statusCode = 404
      return res.end()
    }
    const [type, body, cache, etag] = file
    res.setHeader('cache-control', cache)
    res.setHeader('etag', etag)
    res.setHeader('last-modified', 'Mon, 01 Jan 2024 00:00:00 GMT')
    if (req.headers['if-none-match'] === etag) {
      res.statusCode = 304
      return res.end()
    }
    res.setHeader('content-type', type)
    res.end(body)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

/** Chromium loads the page, reloads it and visits it again, recording a HAR. */
async function record(): Promise<string> {
  const har = join(mkdtempSync(join(tmpdir(), 'cannonade-har-')), 'reload.har')
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' })
  try {
    const context = await browser.newContext({ recordHar: { path: har } })
    const page = await context.newPage()
    await page.goto(`${base}/`, { waitUntil: 'networkidle' })
    await page.reload({ waitUntil: 'networkidle' })
    await page.goto(`${base}/`, { waitUntil: 'networkidle' })
    await context.close()
  } finally {
    await browser.close()
  }
  return readFileSync(har, 'utf8')
}

describe('a HAR Chromium recorded, reloaded', () => {
  let text = ''
  let recorded: { path: string; conditional: boolean }[] = []
  beforeAll(async () => {
    seen = []
    text = await record()
    recorded = seen.filter((s) => s.path !== '/favicon.ico')
    seen = []
  }, 120_000)

  it('the recording holds what the import must handle: conditional requests and cached answers', () => {
    const entries = (JSON.parse(text) as { log: { entries: { request: { url: string } }[] } }).log.entries
    // The browser asked with conditional headers on reload, and answered some requests itself.
    expect(recorded.some((r) => r.conditional)).toBe(true)
    expect(entries.length).toBeGreaterThan(recorded.length)
  })

  it('drops conditional headers, leaves cached entries out and lists them, keeps what the server saw', () => {
    const made = importScenario('har', [text], { source: 'reload.har', keepStatic: true })
    const steps = made.config.targets[0]!.steps!
    // One step per request the server saw while Chromium recorded (requests the page made at once
    // may reach the server in another order than they started: compared as lists sorted).
    expect(steps.map((s) => s.path).sort()).toEqual(recorded.map((r) => r.path).sort())
    for (const s of steps) {
      expect(Object.keys(s.headers).map((h) => h.toLowerCase())).not.toContain('if-none-match')
      expect(Object.keys(s.headers).map((h) => h.toLowerCase())).not.toContain('if-modified-since')
      expect(s.expectStatus).toBeUndefined()
    }
    expect(made.notes.join('\n')).toMatch(
      /left out \d+ requests? the browser answered from its cache or memory/,
    )
    expect(made.notes.join('\n')).toMatch(/dropped the conditional headers .* of \d+ requests?/)
    // Nothing names a command's flag: the app shows the notes beside its own checkboxes.
    expect(made.notes.join('\n')).not.toMatch(/--keep/)
  })

  it('keeps the conditional headers when asked', () => {
    const made = importScenario('har', [text], { keepStatic: true, keepConditional: true })
    const steps = made.config.targets[0]!.steps!
    expect(steps.some((s) => Object.keys(s.headers).some((h) => h.toLowerCase() === 'if-none-match'))).toBe(
      true,
    )
    expect(made.notes.join('\n')).not.toMatch(/dropped the conditional headers/)
  })

  it('the imported scenario, run against the same server, has 0 errors', async () => {
    const made = importScenario('har', [text], { keepStatic: true })
    seen = []
    const { summary } = await runConfig({
      ...made.config,
      load: { connections: 2, duration: 1 },
      rounds: 1,
      cooldownSeconds: 0,
    })
    const r = summary.results[0]!
    expect(r.requests).toBeGreaterThan(steps(made).length)
    expect(r.errors).toEqual(r.errors.inflight ? { inflight: r.errors.inflight } : {})
    expect(r.ok).toBe(r.requests)
    const run = seen.filter((s) => s.correlated)
    expect(run.length).toBeGreaterThanOrEqual(r.requests)
    expect(run.some((s) => s.conditional)).toBe(false)
  })
})

const steps = (made: ReturnType<typeof importScenario>) => made.config.targets[0]!.steps!
