// The API contract every target stack meets, as one vitest suite to run against a running server
// (targets/contract.pg.test.ts starts them natively, targets/contract.docker.test.ts under Docker).
// `Target` says how the server was started: through a chain of hops or not, with a pool or not, how many workers or threads
// share a split task, and where its database is (to count the connections it opens).
import crypto from 'node:crypto'
import pg from 'pg'
import { expect, it } from 'vitest'
import { OPENAPI_AD_TITLE, openapiContract } from './openapi.ts'
import { metricsChecks } from './metrics.ts'

export interface Target {
  base: string
  /** CHAIN_DEPTH the server runs with: every answer but /health carries hop1…hopN. */
  hops: number
  /** POOL_SIZE > 0. */
  pooled: boolean
  /** Distinct workers (processes or threads) that compute the parts of /compute?split=4. */
  lanes: number
  /** The server's database, reachable from the test (to count sessions). */
  databaseUrl: string
  /** What /metrics reports beside requests: Node.js's or the JVM's own figures. */
  runtime: 'node' | 'java'
}

export const SEEDED_ADS = 10_000
const TIMING = /^app;dur=(\d+(?:\.\d+)?), db;dur=(\d+(?:\.\d+)?)((?:, hop\d+;dur=\d+(?:\.\d+)?)*)$/

interface Answer {
  status: number
  headers: Headers
  text: string
  json: () => unknown
  timing: { app: number; db: number }
}

let sequence = 0

/**
 * One request with a fresh x-correlation-id; asserts what every response must carry: the echoed
 * correlation id and a well-formed Server-Timing header (app >= db).
 */
async function call(
  t: Target,
  pathAndQuery: string,
  init: RequestInit = {},
  hops = pathAndQuery.startsWith('/health') ? 0 : t.hops,
): Promise<Answer> {
  const correlation = `contract-${process.pid}-${++sequence}`
  const headers = new Headers(init.headers)
  headers.set('x-correlation-id', correlation)
  const res = await fetch(t.base + pathAndQuery, { ...init, headers, signal: AbortSignal.timeout(30_000) })
  const text = await res.text()
  const where = `${init.method ?? 'GET'} ${pathAndQuery} -> ${res.status}`
  expect(res.headers.get('x-correlation-id'), `${where}: x-correlation-id echo`).toBe(correlation)
  const timing = res.headers.get('server-timing') ?? ''
  const m = TIMING.exec(timing)
  expect(m, `${where}: Server-Timing "${timing}"`).not.toBeNull()
  const app = Number(m?.[1])
  const db = Number(m?.[2])
  expect(app, `${where}: app >= db in "${timing}"`).toBeGreaterThanOrEqual(db)
  // One entry per hop, in order, each hop waiting longer than the hop after it (they nest).
  const hopEntries = [...(m?.[3] ?? '').matchAll(/hop(\d+);dur=([\d.]+)/g)]
  expect(
    hopEntries.map((h) => Number(h[1])),
    `${where}: hops in "${timing}"`,
  ).toEqual(Array.from({ length: hops }, (_, i) => i + 1))
  const waits = hopEntries.map((h) => Number(h[2]))
  waits.forEach((w, i) =>
    expect(w, `${where}: hop ${i + 1} nests in "${timing}"`).toBeLessThanOrEqual(
      i === 0 ? app : waits[i - 1]!,
    ),
  )
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: () => JSON.parse(text) as unknown,
    timing: { app, db },
  }
}

const postJson = (t: Target, p: string, body: unknown, headers: Record<string, string> = {}) =>
  call(t, p, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  })

async function expectError(answer: Promise<Answer>, status: number): Promise<Answer> {
  const a = await answer
  expect(a.status, a.text).toBe(status)
  expect(a.headers.get('content-type')).toMatch(/^application\/json/)
  const body = a.json() as { error?: unknown }
  expect(typeof body.error, a.text).toBe('string')
  return a
}

interface Ad {
  id: number
  title: string
  body: string
  price: number
  created_at: string
}

function expectAd(ad: unknown): asserts ad is Ad {
  expect(ad).toBeTypeOf('object')
  const a = ad as Record<string, unknown>
  expect(Object.keys(a).sort()).toEqual(['body', 'created_at', 'id', 'price', 'title'])
  expect(a['id']).toBeTypeOf('number')
  expect(a['title']).toBeTypeOf('string')
  expect(a['body']).toBeTypeOf('string')
  expect(a['price']).toBeTypeOf('number')
  expect(a['created_at']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
}

/** The shared checks. Tests run in order: the seeded-count check comes before any POST /ads. */
export function contract(target: () => Target): void {
  it('GET /health answers {"status":"ok"}', async () => {
    const a = await call(target(), '/health')
    expect(a.status).toBe(200)
    expect(a.headers.get('content-type')).toMatch(/^application\/json/)
    expect(a.json()).toEqual({ status: 'ok' })
  })

  it(`is seeded with exactly ${SEEDED_ADS} ads`, async () => {
    const tail = await call(target(), `/ads?limit=1000&offset=${SEEDED_ADS - 5}`)
    expect(tail.status).toBe(200)
    const ads = tail.json() as Ad[]
    expect(ads.slice(0, 5).map((ad) => ad.id)).toEqual([9996, 9997, 9998, 9999, 10000])
    // Ads past the seed can only be the contract's own (another run of it on the same database).
    expect(
      ads.slice(5).filter((ad) => ad.title !== 'Contract bike' && ad.title !== OPENAPI_AD_TITLE),
    ).toEqual([])
  })

  it('GET /ads lists 20 ads from offset 0 by default, ordered by id, with DB time', async () => {
    const a = await call(target(), '/ads')
    expect(a.status).toBe(200)
    const ads = a.json() as Ad[]
    expect(ads.map((ad) => ad.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    for (const ad of ads) expectAd(ad)
    expect(ads[0]?.title).toBe('Ad #1: sofa')
    expect(ads[0]?.price).toBe(79.19)
    expect(a.timing.db).toBeGreaterThan(0)
  })

  it('GET /ads honours limit and offset', async () => {
    const a = await call(target(), '/ads?limit=3&offset=100&format=json')
    expect((a.json() as Ad[]).map((ad) => ad.id)).toEqual([101, 102, 103])
  })

  it('GET /ads?format=text gives one line per ad: id, title, price', async () => {
    const json = (await call(target(), '/ads?limit=7&offset=40')).json() as Ad[]
    const a = await call(target(), '/ads?limit=7&offset=40&format=text')
    expect(a.status).toBe(200)
    expect(a.headers.get('content-type')).toMatch(/^text\/plain/)
    const lines = a.text.trimEnd().split('\n')
    expect(lines).toHaveLength(7)
    lines.forEach((line, i) => {
      const [id, title, price] = line.split('\t')
      expect(Number(id)).toBe(json[i]?.id)
      expect(title).toBe(json[i]?.title)
      expect(Number(price)).toBe(json[i]?.price)
    })
  })

  it('GET /ads rejects bad limit, offset and format with 400', async () => {
    for (const q of [
      'limit=0',
      'limit=1001',
      'limit=abc',
      'limit=-1',
      'offset=-1',
      'offset=1.5',
      'format=xml',
    ]) {
      await expectError(call(target(), `/ads?${q}`), 400)
    }
  })

  it('GET /ads/:id answers one ad, 404 when missing, 400 when not an id', async () => {
    const a = await call(target(), '/ads/42')
    expect(a.status).toBe(200)
    const ad = a.json()
    expectAd(ad)
    expect(ad.id).toBe(42)
    const listed = (await call(target(), '/ads?limit=1&offset=41')).json() as Ad[]
    expect(ad).toEqual(listed[0])
    await expectError(call(target(), '/ads/999999'), 404)
    for (const bad of ['abc', '0', '-3', '1.5', '99999999999'])
      await expectError(call(target(), `/ads/${bad}`), 400)
  })

  it('POST /ads creates an ad (201) that GET /ads/:id then returns', async () => {
    const a = await postJson(target(), '/ads', { title: 'Contract bike', body: 'Barely used.', price: 149.5 })
    expect(a.status, a.text).toBe(201)
    const ad = a.json()
    expectAd(ad)
    expect(ad).toMatchObject({ title: 'Contract bike', body: 'Barely used.', price: 149.5 })
    expect(ad.id).toBeGreaterThan(SEEDED_ADS)
    expect((await call(target(), `/ads/${ad.id}`)).json()).toEqual(ad)
  })

  it('POST /ads rejects invalid input with 400', async () => {
    const bad: unknown[] = [
      '{not json',
      '[1,2]',
      '',
      { body: 'no title', price: 1 },
      { title: '', body: 'x', price: 1 },
      { title: 'x', body: 'x', price: -1 },
      { title: 'x', body: 'x', price: '12' },
      { title: 'x', body: 7, price: 1 },
      { title: 'x', body: 'x' },
    ]
    for (const body of bad) await expectError(postJson(target(), '/ads', body), 400)
  })

  it('GET /compute?iterations=N returns PBKDF2-SHA256 of the fixed password, hex', async () => {
    for (const n of [1, 1000]) {
      const a = await call(target(), `/compute?iterations=${n}`)
      expect(a.status).toBe(200)
      const expected = crypto.pbkdf2Sync('cannonade', 'cannonade-salt', n, 32, 'sha256').toString('hex')
      expect(a.json()).toEqual({ iterations: n, hash: expected })
      expect(a.timing.db).toBe(0)
    }
    for (const q of ['iterations=0', 'iterations=abc', 'iterations=1000001']) {
      await expectError(call(target(), `/compute?${q}`), 400)
    }
  })

  it('GET /payload?bytes=N returns exactly N bytes', async () => {
    for (const n of [0, 1, 100_000]) {
      const a = await call(target(), `/payload?bytes=${n}`)
      expect(a.status).toBe(200)
      expect(a.text.length).toBe(n)
      expect(Number(a.headers.get('content-length'))).toBe(n)
    }
    for (const q of ['bytes=-1', 'bytes=abc', `bytes=${10 * 1024 * 1024 + 1}`]) {
      await expectError(call(target(), `/payload?${q}`), 400)
    }
  })

  it('POST /users registers (201), refuses a taken name (409) and bad input (400)', async () => {
    const username = `alice_${crypto.randomBytes(4).toString('hex')}`
    const a = await postJson(target(), '/users', { username, password: 's3cret!' })
    expect(a.status, a.text).toBe(201)
    expect(a.json()).toMatchObject({ username })
    await expectError(postJson(target(), '/users', { username, password: 'other' }), 409)
    await expectError(postJson(target(), '/users', { username: 'has space', password: 'x' }), 400)
    await expectError(postJson(target(), '/users', { username: 'nopassword' }), 400)
    await expectError(postJson(target(), '/users', 'null'), 400)
  })

  it('POST /login gives a bearer token for GET /me; wrong credentials and tokens get 401', async () => {
    const username = `bob_${crypto.randomBytes(4).toString('hex')}`
    expect((await postJson(target(), '/users', { username, password: 'pa55word' })).status).toBe(201)
    const login = await postJson(target(), '/login', { username, password: 'pa55word' })
    expect(login.status, login.text).toBe(200)
    const { token } = login.json() as { token: string }
    expect(token).toMatch(/^\S{16,}$/)
    const me = await call(target(), '/me', { headers: { authorization: `Bearer ${token}` } })
    expect(me.status, me.text).toBe(200)
    expect(me.json()).toEqual({ username })

    await expectError(postJson(target(), '/login', { username, password: 'wrong' }), 401)
    await expectError(postJson(target(), '/login', { username: 'nobody_here', password: 'x' }), 401)
    await expectError(postJson(target(), '/login', { username }), 400)
    await expectError(call(target(), '/me'), 401)
    await expectError(call(target(), '/me', { headers: { authorization: 'Bearer not-a-real-token' } }), 401)
    await expectError(call(target(), '/me', { headers: { authorization: `Basic ${token}` } }), 401)
  })

  it('answers 404 for unknown routes and 405 for wrong methods, still echoing headers', async () => {
    await expectError(call(target(), '/no/such/route'), 404)
    await expectError(call(target(), '/health', { method: 'POST' }), 405)
  })

  it('GET /compute?iterations=N&split=K splits the work into K parts and joins them', async () => {
    const t = target()
    const a = await call(t, '/compute?iterations=20001&split=4')
    expect(a.status, a.text).toBe(200)
    const body = a.json() as { iterations: number; split: number; hash: string; workers: string[] }
    expect(body).toMatchObject({ iterations: 20001, split: 4, hash: splitHash(20001, 4) })
    expect(body.workers).toHaveLength(4)
    // The parts go round the workers (processes or threads) in turn: K parts on min(K, lanes).
    expect(new Set(body.workers).size, body.workers.join(' ')).toBe(Math.min(4, t.lanes))
    const one = (await call(t, '/compute?iterations=7&split=7')).json() as { hash: string }
    expect(one.hash).toBe(splitHash(7, 7))
    for (const q of [
      'iterations=10&split=0',
      'iterations=10&split=11',
      'iterations=1000&split=65',
      'split=x',
    ]) {
      await expectError(call(t, `/compute?${q}`), 400)
    }
  })

  it('POST /payload receives N bytes of text or JSON and answers their size and SHA-256', async () => {
    const t = target()
    const text = Buffer.alloc(100_000, 'abcdefghij')
    const a = await call(t, '/payload', {
      method: 'POST',
      body: text,
      headers: { 'content-type': 'text/plain' },
    })
    expect(a.status, a.text).toBe(200)
    expect(a.json()).toEqual({ bytes: 100_000, sha256: sha256(text), kind: 'text' })
    const doc = JSON.stringify({ items: Array.from({ length: 500 }, (_, i) => ({ i, name: `item ${i}` })) })
    const b = await postJson(t, '/payload', doc)
    expect(b.json()).toEqual({ bytes: Buffer.byteLength(doc), sha256: sha256(doc), kind: 'json' })
    const empty = await call(t, '/payload', { method: 'POST' })
    expect(empty.json()).toEqual({ bytes: 0, sha256: sha256(''), kind: 'text' })
    await expectError(postJson(t, '/payload', '{"truncated": '), 400)
    await expectError(call(t, '/payload', { method: 'PUT' }), 405)
  })

  it('POST /payload takes up to 10 MiB and refuses more with 413', async () => {
    const t = target()
    const max = Buffer.alloc(MAX_PAYLOAD_BYTES, 'y')
    const a = await call(t, '/payload', { method: 'POST', body: max })
    expect(a.json()).toEqual({ bytes: MAX_PAYLOAD_BYTES, sha256: sha256(max), kind: 'text' })
    // The entry refuses before any hop: no hop entries on this answer.
    const tooBig = await call(t, '/payload', { method: 'POST', body: Buffer.alloc(MAX_PAYLOAD_BYTES + 1) }, 0)
    expect(tooBig.status, tooBig.text).toBe(413)
  })

  it(`opens a database connection per request without a pool, and reuses them with one`, async () => {
    const t = target()
    const client = new pg.Client({ connectionString: t.databaseUrl })
    await client.connect()
    try {
      const sessions = async () =>
        Number(
          (
            await client.query<{ n: string }>(
              'SELECT sessions AS n FROM pg_stat_database WHERE datname = current_database()',
            )
          ).rows[0]?.n,
        )
      const before = await sessions()
      const requests = 25
      for (let i = 0; i < requests; i++) expect((await call(t, `/ads/${i + 1}`)).status).toBe(200)
      if (t.pooled) {
        // Pooled connections stay open; a connection per request would have ended (and counted) by now.
        expect((await sessions()) - before).toBeLessThan(requests)
      } else {
        // A session is counted when its backend ends, just after the client closed it: wait for all of them.
        const deadline = Date.now() + 15_000
        let opened = (await sessions()) - before
        while (opened < requests && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100))
          opened = (await sessions()) - before
        }
        expect(opened).toBeGreaterThanOrEqual(requests)
      }
    } finally {
      await client.end()
    }
  })

  it('a malformed hop header is refused with 400 when chained', async () => {
    const t = target()
    const a = await call(t, '/ads/1', { headers: { 'x-cannonade-hop': t.hops > 0 ? '99' : '0' } }, 0)
    expect(a.status, a.text).toBe(t.hops > 0 ? 400 : 200)
  })

  openapiContract(target)
  metricsChecks(target, (path, init, hops) => call(target(), path, init, hops))
}

const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024

function sha256(data: string | Buffer): string {
  return crypto.createHash('sha256').update(data).digest('hex')
}

/** The /compute?split=K answer's hash, computed here: part i hashes salt "cannonade-salt:i". */
function splitHash(iterations: number, split: number): string {
  const sha = crypto.createHash('sha256')
  for (let i = 0; i < split; i++) {
    const n = Math.floor(iterations / split) + (i < iterations % split ? 1 : 0)
    sha.update(crypto.pbkdf2Sync('cannonade', `cannonade-salt:${i}`, n, 32, 'sha256'))
  }
  return sha.digest('hex')
}
