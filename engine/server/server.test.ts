// The web transport against an in-memory fake Api (the real host has its own tests; here only the
// transport's rules matter: token, parsing, error codes, events, static files).
import { mkdtempSync, writeFileSync, mkdirSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import type { Api } from '../api/api.ts'
import { mapContract } from '../api/channels.ts'
import { createApiClient, type Transport } from '../api/transport/client.ts'
import { ApiError } from '../api/errors.ts'
import type { ProgressEvent, RunEndedEvent } from '../api/types.ts'
import { startServer, type RunningServer } from './http.ts'

function fakeApi() {
  const progress = new Set<(e: ProgressEvent) => void>()
  const ended = new Set<(e: RunEndedEvent) => void>()
  const calls: string[] = []
  const unavailable = async (): Promise<never> => {
    throw new ApiError('unavailable', 'not in the fake')
  }
  // Every operation of the contract answers `unavailable` and every subscription is inert, unless
  // replaced below: a new operation needs no edit here.
  const base = mapContract(
    () => unavailable,
    () => () => () => {},
  ) as unknown as Api
  const api: Api = {
    ...base,
    runs: {
      ...base.runs,
      validate: async () => ({ ok: true, issues: [], config: null }),
      start: async () => ({ runId: 7 }),
      stop: async (id) => {
        calls.push(`stop ${id}`)
      },
      active: async () => [],
      list: async (q) => ({ items: [], total: q?.limit ?? -1 }),
      get: async (id) => {
        throw new ApiError('not-found', `no run ${id}`)
      },
      tag: async (id, tags) => {
        calls.push(`tag ${id} ${tags.join(',')}`)
      },
      onProgress: (cb) => {
        progress.add(cb)
        return () => progress.delete(cb)
      },
      onEnded: (cb) => {
        ended.add(cb)
        return () => ended.delete(cb)
      },
      onAgents: () => () => {},
    },
    settings: { ...base.settings, get: async () => ({ theme: 'system' }) },
  }
  return { api, progress, ended, calls }
}

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function http(
  server: RunningServer,
  method: string,
  path: string,
  opts: { body?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.origin}${path}`, { method, headers: opts.headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end(opts.body)
  })
}

describe('web transport', () => {
  let dir: string
  let server: RunningServer
  let fake: ReturnType<typeof fakeApi>

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cannonade-static-'))
    mkdirSync(join(dir, 'assets'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title>')
    writeFileSync(join(dir, 'assets', 'app-1.js'), 'console.log(1)')
    writeFileSync(join(dir, '..', 'cannonade-secret.txt'), 'secret')
    fake = fakeApi()
    server = await startServer({ host: fake.api, staticDir: dir })
  })
  afterEach(async () => {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
    rmSync(join(dir, '..', 'cannonade-secret.txt'), { force: true })
  })

  const auth = () => ({ 'x-cannonade-token': server.token, 'content-type': 'application/json' })

  it('prints a 127.0.0.1 URL that carries the token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=.{20,}$/)
  })

  it('refuses API calls without the right token', async () => {
    expect((await http(server, 'POST', '/api/runs:active', { body: '[]' })).status).toBe(401)
    const wrong = await http(server, 'POST', '/api/runs:active', {
      body: '[]',
      headers: { 'x-cannonade-token': 'nope' },
    })
    expect(wrong.status).toBe(401)
    expect(JSON.parse(wrong.body)).toMatchObject({
      error: { message: expect.stringContaining('token') as unknown },
    })
  })

  it('calls the method with parsed arguments (defaults applied)', async () => {
    const res = await http(server, 'POST', '/api/runs:list', { body: '[{}]', headers: auth() })
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toEqual({ items: [], total: 50 })
    const bearer = await http(server, 'POST', `/api/runs:tag?token=${server.token}`, {
      body: '[3,["a","b"]]',
    })
    expect(bearer.status).toBe(200)
    expect(bearer.body).toBe('null')
    expect(fake.calls).toEqual(['tag 3 a,b'])
  })

  it('maps bad input, unknown channels and ApiError codes to statuses', async () => {
    const bad = await http(server, 'POST', '/api/runs:stop', { body: '["x"]', headers: auth() })
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body)).toMatchObject({ error: { code: 'bad-input' } })
    expect(
      (await http(server, 'POST', '/api/runs:stop', { body: '{not json', headers: auth() })).status,
    ).toBe(400)
    expect((await http(server, 'POST', '/api/runs:nope', { body: '[]', headers: auth() })).status).toBe(404)
    expect((await http(server, 'GET', '/api/runs:active', { headers: auth() })).status).toBe(405)
    const missing = await http(server, 'POST', '/api/runs:get', { body: '[12]', headers: auth() })
    expect(missing.status).toBe(404)
    expect(JSON.parse(missing.body)).toEqual({ error: { code: 'not-found', message: 'no run 12' } })
  })

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const res = await http(server, 'POST', '/api/runs:active', {
      body: '[]',
      headers: { ...auth(), host: 'evil.example' },
    })
    expect(res.status).toBe(421)
  })

  it('refuses a call from another page (Origin) even with the token, on the API and the socket', async () => {
    const own = await http(server, 'POST', '/api/runs:active', {
      body: '[]',
      headers: { ...auth(), origin: server.origin },
    })
    expect(own.status).toBe(200)
    for (const origin of [
      'http://evil.example',
      'null',
      `http://127.0.0.1:${server.port + 1}`,
      `https://127.0.0.1:${server.port}`,
    ]) {
      const res = await http(server, 'POST', '/api/runs:active', {
        body: '[]',
        headers: { ...auth(), origin },
      })
      expect(res.status, origin).toBe(403)
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api/events?token=${server.token}`, { origin })
      const status = await new Promise<number>((resolve) =>
        ws.on('unexpected-response', (_req, r) => resolve(r.statusCode ?? 0)),
      )
      expect(status, origin).toBe(403)
    }
    const download = await http(server, 'GET', `/api/download?path=/etc/passwd&token=${server.token}`, {
      headers: { origin: 'http://evil.example' },
    })
    expect(download.status).toBe(403)
  })

  it('answers a body over the limit with 413 and closes the connection', async () => {
    // Declared too large, and too large while streaming without a length: either way the server
    // stops reading, says 413 and closes; the client is still sending when it does.
    for (const framing of ['content-length: 1000000000', 'transfer-encoding: chunked']) {
      const reply = await new Promise<{ text: string; closed: boolean }>((resolve) => {
        const socket = net.connect(server.port, '127.0.0.1')
        let text = ''
        const chunk = Buffer.alloc(64 * 1024, 0x20)
        let sent = 0
        const pump = () => {
          // Up to 3× the limit, then stop: a server that kept reading would never answer.
          while (!socket.destroyed && sent < 12 * 1024 * 1024) {
            sent += chunk.length
            const framed = framing.startsWith('transfer')
              ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
              : chunk
            if (!socket.write(framed)) return void socket.once('drain', pump)
          }
        }
        socket.on('connect', () => {
          socket.write(
            `POST /api/runs:validate HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\nx-cannonade-token: ${server.token}\r\n${framing}\r\n\r\n`,
          )
          pump()
        })
        socket.on('data', (c: Buffer) => (text += c.toString('latin1')))
        socket.on('error', () => {})
        socket.on('close', () => resolve({ text, closed: true }))
      })
      expect(reply.text, framing).toMatch(/^HTTP\/1\.1 413 /)
      expect(reply.text.toLowerCase(), framing).toContain('connection: close')
      expect(reply.closed).toBe(true)
    }
    // And the server goes on.
    expect((await http(server, 'POST', '/api/runs:active', { body: '[]', headers: auth() })).status).toBe(200)
  })

  it('serves the app with a CSP, falls back to index.html for routes, blocks traversal', async () => {
    const index = await http(server, 'GET', '/')
    expect(index.status).toBe(200)
    expect(index.headers['content-security-policy']).toContain("script-src 'self'")
    expect((await http(server, 'GET', '/runs/3')).body).toContain('<title>app</title>')
    const asset = await http(server, 'GET', '/assets/app-1.js')
    expect(asset.headers['content-type']).toContain('javascript')
    expect(asset.headers['cache-control']).toContain('immutable')
    expect((await http(server, 'GET', '/assets/missing.js')).status).toBe(404)
    const escape = await http(server, 'GET', '/..%2fcannonade-secret.txt')
    expect([403, 404]).toContain(escape.status)
    expect(escape.body).not.toContain('secret')
  })

  it('sends events over the WebSocket, only with the token', async () => {
    const denied = new WebSocket(`ws://127.0.0.1:${server.port}/api/events`)
    const deniedStatus = await new Promise<number>((resolve) =>
      denied.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    )
    expect(deniedStatus).toBe(401)

    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api/events?token=${server.token}`)
    await new Promise((resolve) => ws.on('open', resolve))
    const got = new Promise<unknown>((resolve) =>
      ws.on('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8')))),
    )
    for (const cb of fake.ended) cb({ type: 'ended', runId: 7, status: 'done', error: null })
    expect(await got).toEqual({
      event: 'runs:ended',
      payload: { type: 'ended', runId: 7, status: 'done', error: null },
    })
    ws.close()
  })

  it('works end to end through createApiClient (the renderer uses the same client)', async () => {
    const transport: Transport = {
      async call(channel, args) {
        const res = await fetch(`${server.origin}/api/${channel}`, {
          method: 'POST',
          headers: auth(),
          body: JSON.stringify(args),
        })
        const body = (await res.json()) as { error?: { message: string } }
        if (!res.ok) throw new Error(body.error?.message)
        return body as never
      },
      subscribe: () => () => {},
    }
    const client = createApiClient(transport)
    expect(await client.runs.start({})).toEqual({ runId: 7 })
    await client.runs.stop(7)
    expect(fake.calls).toContain('stop 7')
    await expect(client.runs.get(99)).rejects.toThrow('no run 99')
  })
})
