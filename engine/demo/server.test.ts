// The embedded demo target answers every route of the stacks' API shape as the stacks do
// (targets/README.md): health, the ads, the marketplace scenario's accounts and tokens, compute,
// payloads both ways, slow; bad input gets a 4xx naming what is wrong, an unknown path a 404.
import { createHash, pbkdf2Sync } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_CORRELATION_HEADER } from '../config/schema.ts'
import { startDemoServer, type DemoServer } from './server.ts'

let demo: DemoServer
beforeAll(async () => {
  demo = await startDemoServer()
})
afterAll(async () => {
  await demo.close()
})

async function call(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; type: string | null; json: unknown; res: Response }> {
  const res = await fetch(demo.url + path, init)
  const type = res.headers.get('content-type')
  const text = await res.text()
  return { status: res.status, type, json: type === 'application/json' ? JSON.parse(text) : text, res }
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

describe('the demo target', () => {
  it('answers /health, echoes the correlation id and times itself in Server-Timing', async () => {
    const r = await call('/health', { headers: { [DEFAULT_CORRELATION_HEADER]: 'abc-1' } })
    expect(r.status).toBe(200)
    expect(r.json).toEqual({ status: 'ok' })
    expect(r.res.headers.get(DEFAULT_CORRELATION_HEADER)).toBe('abc-1')
    expect(r.res.headers.get('server-timing')).toMatch(/^app;dur=\d+\.\d{3}, db;dur=0$/)
  })

  it('lists ads by limit and offset, and reads one by id', async () => {
    const list = await call('/ads?limit=2&offset=9998')
    expect(list.json).toEqual([
      {
        id: 9999,
        title: 'Ad 9999',
        body: 'A demo advertisement number 9999.',
        price: ((9998 * 7919) % 100_000) / 100,
      },
      {
        id: 10000,
        title: 'Ad 10000',
        body: 'A demo advertisement number 10000.',
        price: ((9999 * 7919) % 100_000) / 100,
      },
    ])
    expect(((await call('/ads')).json as unknown[]).length).toBe(20)
    expect((await call('/ads/7')).json).toMatchObject({ id: 7, title: 'Ad 7' })
    expect(await call('/ads/10001')).toMatchObject({ status: 404, json: { error: 'no such ad' } })
    expect(await call('/ads?limit=1001')).toMatchObject({
      status: 400,
      json: { error: 'limit and offset must be whole numbers' },
    })
    expect((await call('/ads?offset=-1')).status).toBe(400)
  })

  it('registers, logs in and posts an ad with the token; refuses the rest', async () => {
    const user = { username: `u${process.pid}`, password: 'pw' }
    expect(await post('/users', user)).toMatchObject({ status: 201, json: { username: user.username } })
    expect(await post('/users', user)).toMatchObject({ status: 409, json: { error: 'user exists' } })
    expect(await post('/users', { username: 'x' })).toMatchObject({
      status: 400,
      json: { error: 'username and password are required' },
    })
    expect(await post('/login', { ...user, password: 'nope' })).toMatchObject({
      status: 401,
      json: { error: 'wrong username or password' },
    })
    const login = await post('/login', user)
    expect(login.status).toBe(200)
    const token = (login.json as { token: string }).token
    const auth = { authorization: `Bearer ${token}` }
    expect(await call('/me', { headers: auth })).toMatchObject({
      status: 200,
      json: { username: user.username },
    })
    expect((await call('/me')).status).toBe(401)
    expect(await post('/ads', { title: 'T', price: 3 }, auth)).toMatchObject({
      status: 201,
      json: { id: 10001, title: 'T', body: '', price: 3 },
    })
    expect(await post('/ads', { price: 3 }, auth)).toMatchObject({
      status: 400,
      json: { error: 'title is required' },
    })
    expect(await post('/ads', { title: 'T' })).toMatchObject({
      status: 401,
      json: { error: 'a bearer token is required' },
    })
    expect((await call('/users', { method: 'POST', body: 'not json' })).status).toBe(400)
  })

  it('computes the PBKDF2 hash it is asked for, and refuses a bad iteration count', async () => {
    expect((await call('/compute?iterations=3')).json).toEqual({
      hash: pbkdf2Sync('cannonade', 'salt', 3, 32, 'sha256').toString('hex'),
    })
    expect((await call('/compute?iterations=0')).status).toBe(400)
    expect((await call('/compute?iterations=x')).status).toBe(400)
  })

  it('sends a payload of the size asked, and says the size and SHA-256 of one it receives', async () => {
    const down = await fetch(`${demo.url}/payload?bytes=5`)
    expect(down.headers.get('content-type')).toBe('application/octet-stream')
    expect(Buffer.from(await down.arrayBuffer()).toString()).toBe('xxxxx')
    expect((await call('/payload?bytes=-5')).status).toBe(400)
    const body = 'x'.repeat(70_000)
    const up = await call('/payload', { method: 'POST', headers: { 'content-type': 'text/plain' }, body })
    expect(up.json).toEqual({
      bytes: 70_000,
      sha256: createHash('sha256').update(body).digest('hex'),
      kind: 'text',
    })
    expect((await post('/payload', {})).json).toMatchObject({ bytes: 2, kind: 'json' })
  })

  it('answers /slow after the milliseconds asked, and 404 for what it does not serve', async () => {
    expect((await call('/slow?ms=5')).json).toEqual({ slept: 5 })
    expect((await call('/slow?ms=x')).json).toEqual({ slept: 100 })
    expect(await call('/nothing')).toMatchObject({ status: 404, json: { error: 'not found' } })
  })
})
