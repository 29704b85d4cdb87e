// Scenarios: a target as a sequence of requests with values captured from one response and
// used in the next; statistics per step as well as per target.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { runConfig } from '../testing/run.ts'

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
  const seen = { register: 0, login: 0, me: 0, meUnauthorized: 0 }
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
        return json(200, { username: tokens.get(auth) })
      }
      json(404, {})
    })
  })
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, seen }
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
            {
              name: 'register',
              method: 'POST',
              path: '/users',
              headers: { 'content-type': 'application/json' },
              body: '{"username":"u${iteration}","password":"p${iteration}"}',
              expectStatus: 201,
            },
            {
              name: 'login',
              method: 'POST',
              path: '/login',
              headers: { 'content-type': 'application/json' },
              body: '{"username":"u${iteration}","password":"p${iteration}"}',
              capture: { token: { json: 'data.token' } },
            },
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

  it('a failed capture ends the pass and is counted as a capture error', async () => {
    const { url, seen } = await marketplace()
    const { summary } = await runConfig({
      version: 1,
      name: 'broken capture',
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
          ],
        },
      ],
      load: { connections: 1, requests: 20 },
      cooldownSeconds: 0,
    })
    const r = summary.results[0]!
    expect(r.errors.capture).toBe(20)
    expect(seen.me + seen.meUnauthorized).toBe(0) // never reached: each pass started over at login
  })
})
