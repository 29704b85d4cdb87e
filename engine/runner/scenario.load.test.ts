// Scenarios: a target as a sequence of requests with values captured from one response and
// used in the next; statistics per step as well as per target.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { runConfig } from '../testing/run-config.ts'
import { thinkSampler } from './think.ts'
import { resultsTable } from '../cli/summary.ts'
import { stepTables } from '../report/tables.ts'
import type { RunReportData } from '../report/data.ts'

let server: http.Server | null = null
afterEach(() => {
  server?.closeAllConnections()
  server?.close()
  server = null
})

/** register → login (token) → me (needs the token); counts what it saw. */
async function marketplace() {
  const users = new Map<string, string>()
  const tokens = new Map<string, string>()
  const seen = { register: 0, login: 0, me: 0, meUnauthorized: 0, wrongUser: 0 }
  server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      const json = (status: number, value: unknown) => {
        res.statusCode = status
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify(value))
      }
      if (req.url === '/api/users' && req.method === 'POST') {
        const u = JSON.parse(body) as { username: string; password: string }
        seen.register++
        if (users.has(u.username)) return json(409, { error: 'exists' })
        users.set(u.username, u.password)
        return json(201, { id: users.size })
      }
      if (req.url === '/api/login' && req.method === 'POST') {
        const u = JSON.parse(body) as { username: string; password: string }
        seen.login++
        if (users.get(u.username) !== u.password) return json(401, { error: 'bad credentials' })
        const token = `tok-${u.username}`
        tokens.set(token, u.username)
        return json(200, { data: { token } })
      }
      if (req.url === '/api/me') {
        const auth = (req.headers.authorization ?? '').replace(/^Bearer /, '')
        if (!tokens.has(auth)) {
          seen.meUnauthorized++
          return json(401, { error: 'no token' })
        }
        seen.me++
        // `x-user`, when sent, must be the user the token was issued to.
        const claimed = req.headers['x-user']
        if (typeof claimed === 'string' && `u${claimed}` !== tokens.get(auth)) seen.wrongUser++
        return json(200, { username: tokens.get(auth) })
      }
      json(404, {})
    })
  })
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, seen }
}

/** register (201 expected) → login capturing the token, as the user named by `variable`. */
function signUp(variable: 'iteration' | 'user', extra: { once?: boolean } = {}) {
  const body = `{"username":"u\${${variable}}","password":"p\${${variable}}"}`
  const headers = { 'content-type': 'application/json' }
  return [
    { name: 'register', method: 'POST', path: '/users', headers, body, expectStatus: 201, ...extra },
    {
      name: 'login',
      method: 'POST',
      path: '/login',
      headers,
      body,
      capture: { token: { json: 'data.token' } },
      ...extra,
    },
  ]
}

describe('scenarios', () => {
  it('runs register → login → me with a captured token, per-step statistics kept', async () => {
    const { url, seen } = await marketplace()
    const { summary, db } = await runConfig({
      version: 1,
      name: 'marketplace',
      targets: [
        {
          name: 'market',
          url,
          steps: [
            ...signUp('iteration'),
            { name: 'me', path: '/me', headers: { authorization: 'Bearer ${token}' } },
          ],
        },
      ],
      load: { connections: 3, duration: 2 },
      cooldownSeconds: 0,
    })
    expect(summary.status).toBe('done')
    const r = summary.results[0]!
    expect(r.steps!.map((s) => s.step)).toEqual(['register', 'login', 'me'])
    expect(seen.meUnauthorized).toBe(0)
    expect(seen.me).toBeGreaterThan(20)
    // Every pass used a fresh user: no 409 conflicts, no capture errors.
    expect(r.errors.capture).toBeUndefined()
    for (const s of r.steps!) expect(s.ok).toBeGreaterThan(20)
    expect(r.steps![0]!.statusClasses['2xx']).toBe(seen.register - (r.steps![0]!.errors.inflight ?? 0))
    const perStep = db
      .prepare('SELECT step, count(*) n FROM samples WHERE run_id = ? GROUP BY step ORDER BY step')
      .all(summary.runId) as { step: number; n: number }[]
    expect(perStep.map((s) => s.step)).toEqual([0, 1, 2])
  })

  it('a failed step is named by what happened, and the steps after it are counted as skipped', async () => {
    const { url, seen } = await marketplace()
    const { summary } = await runConfig({
      version: 1,
      name: 'unknown user',
      targets: [
        {
          name: 'market',
          url,
          steps: [
            {
              name: 'login',
              method: 'POST',
              path: '/login',
              body: '{"username":"nobody","password":"x"}',
              capture: { token: { json: 'data.token' } },
            },
            { name: 'me', path: '/me', headers: { authorization: 'Bearer ${token}' } },
            { name: 'again', path: '/me', headers: { authorization: 'Bearer ${token}' } },
          ],
        },
      ],
      load: { connections: 1, requests: 20 },
      cooldownSeconds: 0,
    })
    const r = summary.results[0]!
    // The server answered 401 (as it counted): an unexpected status, not a capture.
    expect(seen.login).toBe(20)
    expect(r.errors).toEqual({ status: 20 })
    expect(r.unexpected).toEqual({ '401': 20 })
    const [login, me, again] = r.steps!
    expect(login!.errors).toEqual({ status: 20 })
    expect(login!.skipped).toBeUndefined()
    expect(me!.skipped).toEqual({ login: 20 })
    expect(again!.skipped).toEqual({ login: 20 })
    expect(seen.me + seen.meUnauthorized).toBe(0) // never reached: each pass started over at login
    // The CLI's table (`cannonade run`, `runs show`) says both under the target.
    const table = resultsTable(summary.results)
    expect(table).toContain('step market #1 login: unexpected status 20 (401 ×20)')
    expect(table).toContain('step market #1 me: skipped after login failed: 20')
    // The report's step table says the same, in the same words (the run page's rows use them too).
    const report = { run: { config: { targets: [{ name: 'market' }] }, results: summary.results } }
    const html = stepTables(report as unknown as RunReportData)
    expect(html).toContain('unexpected status 20 (401 ×20)')
    expect(html).toContain('market #1 step me: skipped after login failed: 20')
  })

  it('an answer whose capture finds nothing is a capture error; the step after it is skipped', async () => {
    const { url, seen } = await marketplace()
    const { summary } = await runConfig({
      version: 1,
      name: 'capture finds nothing',
      targets: [
        {
          name: 'market',
          url,
          steps: [
            ...signUp('iteration').map((s) =>
              s.name === 'login' ? { ...s, capture: { token: { json: 'data.missing' } } } : s,
            ),
            { name: 'me', path: '/me', headers: { authorization: 'Bearer ${token}' } },
          ],
        },
      ],
      load: { connections: 1, requests: 20 },
      cooldownSeconds: 0,
    })
    const r = summary.results[0]!
    const [register, login, me] = r.steps!
    expect(register!.errors).toEqual({})
    expect(login!.errors).toEqual({ capture: login!.requests })
    expect(login!.requests).toBe(seen.login)
    expect(me!.requests).toBe(0)
    expect(me!.skipped).toEqual({ login: seen.login })
  })
})

describe('users: once-steps and think time', () => {
  it('registers and logs in once per connection, then repeats the browsing steps as that user', async () => {
    const { url, seen } = await marketplace()
    const { summary } = await runConfig({
      version: 1,
      name: 'register once, then browse',
      targets: [
        {
          name: 'market',
          url,
          steps: [
            ...signUp('user', { once: true }),
            { name: 'me', path: '/me', headers: { authorization: 'Bearer ${token}', 'x-user': '${user}' } },
          ],
        },
      ],
      load: { connections: 3, duration: 1.5 },
      cooldownSeconds: 0,
    })
    expect(summary.status).toBe('done')
    // Three users, each set up once; every later request by the user its token belongs to.
    expect(seen.register).toBe(3)
    expect(seen.login).toBe(3)
    expect(seen.me).toBeGreaterThan(30)
    expect(seen.meUnauthorized + seen.wrongUser).toBe(0)
    const steps = summary.results[0]!.steps!
    expect(steps.map((x) => [x.step, x.ok])).toEqual([
      ['register', 3],
      ['login', 3],
      ['me', steps[2]!.ok],
    ])
    expect(steps[2]!.ok + (steps[2]!.errors.inflight ?? 0)).toBe(seen.me)
  })

  it('pauses between a response and the next request, and never counts the pause as latency', async () => {
    // A server that answers at once and logs each request's arrival per socket.
    const arrivals = new Map<number, number[]>()
    server = http.createServer((req, res) => {
      const port = req.socket.remotePort ?? 0
      arrivals.set(port, [...(arrivals.get(port) ?? []), performance.now()])
      res.end('ok')
    })
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    const { summary } = await runConfig({
      version: 1,
      name: 'think',
      targets: [{ name: 't', url, think: 40 }],
      load: { connections: 2, duration: 1.2 },
      cooldownSeconds: 0,
    })
    expect(summary.status).toBe('done')
    const r = summary.results[0]!
    // Each connection waits 40 ms after every answer: at most 1 + 1200 / 40 requests each.
    expect(arrivals.size).toBe(2)
    for (const times of arrivals.values()) {
      expect(times.length).toBeLessThanOrEqual(31)
      expect(times.length).toBeGreaterThan(5)
      const gaps = times.slice(1).map((t, i) => t - times[i]!)
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(39.5)
    }
    // The latency is the server's (it answers at once), not the 40 ms pause: were the pause part of
    // it, every request's latency would be at least 40 ms.
    expect(r.latency.min).toBeLessThan(40_000)
    expect(r.latency.p50).toBeLessThan(40_000)
  })

  it('draws random pauses within bounds, the same ones for the same seed', () => {
    const plan = { target: { min: 100, max: 500 }, steps: [], seed: 7 }
    const a = thinkSampler(plan, 0)
    const b = thinkSampler(plan, 0)
    const xs = Array.from({ length: 1000 }, () => a(0))
    expect(Array.from({ length: 1000 }, () => b(0))).toEqual(xs)
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(100)
    expect(Math.max(...xs)).toBeLessThan(500)
    // Spread over the range: a quarter of the draws in each quarter, roughly.
    const low = xs.filter((x) => x < 200).length
    expect(low).toBeGreaterThan(200)
    expect(low).toBeLessThan(300)
    // Another connection, another seed: other pauses.
    expect(thinkSampler(plan, 1)(0)).not.toBe(xs[0])
    expect(thinkSampler({ ...plan, seed: 8 }, 0)(0)).not.toBe(xs[0])
    // A step's own think wins over the target's.
    expect(thinkSampler({ target: 5, steps: [undefined, 50], seed: 1 }, 0)(1)).toBe(50)
    expect(thinkSampler({ target: 5, steps: [undefined, 50], seed: 1 }, 0)(0)).toBe(5)
  })
})
