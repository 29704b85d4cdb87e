// The API contract every target stack must meet, checked against every stack started natively
// (throwaway local PostgreSQL + the server as a local process) and, when Docker is available,
// against compose stacks too. CANNONADE_REQUIRE_DOCKER=1 turns "no Docker" from a skip into a
// failure; CANNONADE_DOCKER_STACKS picks the compose stacks (comma list or "all"; default
// node-http,java-jetty; "none" for none); CANNONADE_NATIVE_STACKS picks the native ones (default all).
import crypto from 'node:crypto'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildNative,
  loadManifest,
  repoRoot,
  startNativeServer,
  waitForHealth,
} from '../engine/stacks/native.ts'
import type { ServerProcess, StackSpec } from '../engine/stacks/native.ts'
import { freePort, seedDatabase, startPostgres } from '../engine/stacks/postgres.ts'
import type { LocalPostgres } from '../engine/stacks/postgres.ts'

const manifest = loadManifest()
const SEEDED_ADS = 10_000
const SERVER_TIMING = /^app;dur=(\d+(?:\.\d+)?), db;dur=(\d+(?:\.\d+)?)$/

function pick(envName: string, fallback: string[]): StackSpec[] {
  const raw = process.env[envName]
  if (raw === 'none') return []
  const names = !raw ? fallback : raw === 'all' ? manifest.stacks.map((s) => s.name) : raw.split(',')
  return names.map((n) => {
    const stack = manifest.stacks.find((s) => s.name === n.trim())
    if (!stack) throw new Error(`${envName}: unknown stack ${n}`)
    return stack
  })
}

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
async function call(base: string, pathAndQuery: string, init: RequestInit = {}): Promise<Answer> {
  const correlation = `contract-${process.pid}-${++sequence}`
  const headers = new Headers(init.headers)
  headers.set('x-correlation-id', correlation)
  const res = await fetch(base + pathAndQuery, { ...init, headers, signal: AbortSignal.timeout(20_000) })
  const text = await res.text()
  const where = `${init.method ?? 'GET'} ${pathAndQuery} -> ${res.status}`
  expect(res.headers.get('x-correlation-id'), `${where}: x-correlation-id echo`).toBe(correlation)
  const timing = res.headers.get('server-timing') ?? ''
  const m = SERVER_TIMING.exec(timing)
  expect(m, `${where}: Server-Timing "${timing}"`).not.toBeNull()
  const app = Number(m?.[1])
  const db = Number(m?.[2])
  expect(app, `${where}: app >= db in "${timing}"`).toBeGreaterThanOrEqual(db)
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: () => JSON.parse(text) as unknown,
    timing: { app, db },
  }
}

const postJson = (base: string, p: string, body: unknown, headers: Record<string, string> = {}) =>
  call(base, p, {
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
function contract(base: () => string): void {
  it('GET /health answers {"status":"ok"}', async () => {
    const a = await call(base(), '/health')
    expect(a.status).toBe(200)
    expect(a.headers.get('content-type')).toMatch(/^application\/json/)
    expect(a.json()).toEqual({ status: 'ok' })
  })

  it(`is seeded with exactly ${SEEDED_ADS} ads`, async () => {
    const tail = await call(base(), `/ads?limit=1000&offset=${SEEDED_ADS - 5}`)
    expect(tail.status).toBe(200)
    expect((tail.json() as Ad[]).map((ad) => ad.id)).toEqual([9996, 9997, 9998, 9999, 10000])
    const after = await call(base(), `/ads?offset=${SEEDED_ADS}`)
    expect(after.json()).toEqual([])
  })

  it('GET /ads lists 20 ads from offset 0 by default, ordered by id, with DB time', async () => {
    const a = await call(base(), '/ads')
    expect(a.status).toBe(200)
    const ads = a.json() as Ad[]
    expect(ads.map((ad) => ad.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    for (const ad of ads) expectAd(ad)
    expect(ads[0]?.title).toBe('Ad #1: sofa')
    expect(ads[0]?.price).toBe(79.19)
    expect(a.timing.db).toBeGreaterThan(0)
  })

  it('GET /ads honours limit and offset', async () => {
    const a = await call(base(), '/ads?limit=3&offset=100&format=json')
    expect((a.json() as Ad[]).map((ad) => ad.id)).toEqual([101, 102, 103])
  })

  it('GET /ads?format=text gives one line per ad: id, title, price', async () => {
    const json = (await call(base(), '/ads?limit=7&offset=40')).json() as Ad[]
    const a = await call(base(), '/ads?limit=7&offset=40&format=text')
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
      await expectError(call(base(), `/ads?${q}`), 400)
    }
  })

  it('GET /ads/:id answers one ad, 404 when missing, 400 when not an id', async () => {
    const a = await call(base(), '/ads/42')
    expect(a.status).toBe(200)
    const ad = a.json()
    expectAd(ad)
    expect(ad.id).toBe(42)
    const listed = (await call(base(), '/ads?limit=1&offset=41')).json() as Ad[]
    expect(ad).toEqual(listed[0])
    await expectError(call(base(), '/ads/999999'), 404)
    for (const bad of ['abc', '0', '-3', '1.5', '99999999999'])
      await expectError(call(base(), `/ads/${bad}`), 400)
  })

  it('POST /ads creates an ad (201) that GET /ads/:id then returns', async () => {
    const a = await postJson(base(), '/ads', { title: 'Contract bike', body: 'Barely used.', price: 149.5 })
    expect(a.status, a.text).toBe(201)
    const ad = a.json()
    expectAd(ad)
    expect(ad).toMatchObject({ title: 'Contract bike', body: 'Barely used.', price: 149.5 })
    expect(ad.id).toBeGreaterThan(SEEDED_ADS)
    expect((await call(base(), `/ads/${ad.id}`)).json()).toEqual(ad)
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
    for (const body of bad) await expectError(postJson(base(), '/ads', body), 400)
  })

  it('GET /compute?iterations=N returns PBKDF2-SHA256 of the fixed password, hex', async () => {
    for (const n of [1, 1000]) {
      const a = await call(base(), `/compute?iterations=${n}`)
      expect(a.status).toBe(200)
      const expected = crypto.pbkdf2Sync('cannonade', 'cannonade-salt', n, 32, 'sha256').toString('hex')
      expect(a.json()).toEqual({ iterations: n, hash: expected })
      expect(a.timing.db).toBe(0)
    }
    for (const q of ['iterations=0', 'iterations=abc', 'iterations=1000001']) {
      await expectError(call(base(), `/compute?${q}`), 400)
    }
  })

  it('GET /payload?bytes=N returns exactly N bytes', async () => {
    for (const n of [0, 1, 100_000]) {
      const a = await call(base(), `/payload?bytes=${n}`)
      expect(a.status).toBe(200)
      expect(a.text.length).toBe(n)
      expect(Number(a.headers.get('content-length'))).toBe(n)
    }
    for (const q of ['bytes=-1', 'bytes=abc', `bytes=${10 * 1024 * 1024 + 1}`]) {
      await expectError(call(base(), `/payload?${q}`), 400)
    }
  })

  it('POST /users registers (201), refuses a taken name (409) and bad input (400)', async () => {
    const username = `alice_${crypto.randomBytes(4).toString('hex')}`
    const a = await postJson(base(), '/users', { username, password: 's3cret!' })
    expect(a.status, a.text).toBe(201)
    expect(a.json()).toMatchObject({ username })
    await expectError(postJson(base(), '/users', { username, password: 'other' }), 409)
    await expectError(postJson(base(), '/users', { username: 'has space', password: 'x' }), 400)
    await expectError(postJson(base(), '/users', { username: 'nopassword' }), 400)
    await expectError(postJson(base(), '/users', 'null'), 400)
  })

  it('POST /login gives a bearer token for GET /me; wrong credentials and tokens get 401', async () => {
    const username = `bob_${crypto.randomBytes(4).toString('hex')}`
    expect((await postJson(base(), '/users', { username, password: 'pa55word' })).status).toBe(201)
    const login = await postJson(base(), '/login', { username, password: 'pa55word' })
    expect(login.status, login.text).toBe(200)
    const { token } = login.json() as { token: string }
    expect(token).toMatch(/^\S{16,}$/)
    const me = await call(base(), '/me', { headers: { authorization: `Bearer ${token}` } })
    expect(me.status, me.text).toBe(200)
    expect(me.json()).toEqual({ username })

    await expectError(postJson(base(), '/login', { username, password: 'wrong' }), 401)
    await expectError(postJson(base(), '/login', { username: 'nobody_here', password: 'x' }), 401)
    await expectError(postJson(base(), '/login', { username }), 400)
    await expectError(call(base(), '/me'), 401)
    await expectError(call(base(), '/me', { headers: { authorization: 'Bearer not-a-real-token' } }), 401)
    await expectError(call(base(), '/me', { headers: { authorization: `Basic ${token}` } }), 401)
  })

  it('answers 404 for unknown routes and 405 for wrong methods, still echoing headers', async () => {
    await expectError(call(base(), '/no/such/route'), 404)
    await expectError(call(base(), '/health', { method: 'POST' }), 405)
  })
}

// --- native stacks --------------------------------------------------------------------------------

describe('native stacks', () => {
  let pg: LocalPostgres | undefined
  beforeAll(async () => {
    pg = await startPostgres({
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
    })
  }, 120_000)
  afterAll(async () => {
    await pg?.stop()
  })

  for (const stack of pick(
    'CANNONADE_NATIVE_STACKS',
    manifest.stacks.map((s) => s.name),
  )) {
    describe(stack.name, () => {
      let server: ServerProcess | undefined
      beforeAll(async () => {
        if (!pg) throw new Error('PostgreSQL did not start')
        const db = stack.name.replace(/-/g, '_')
        await pg.createDatabase(db)
        await seedDatabase(pg.url(db), path.join(repoRoot, manifest.seed), pg.pgBin)
        const built = await buildNative(stack)
        const began = Date.now()
        server = await startNativeServer(stack, { databaseUrl: pg.url(db), timeoutMs: 60_000 })
        console.log(
          `[native] ${stack.name}${built ? ' (built)' : ''} healthy in ${Date.now() - began} ms at ${server.url}`,
        )
      }, 600_000)
      afterAll(async () => {
        await server?.stop()
      })
      contract(() => server?.url ?? 'http://server-not-started')
    })
  }
})

// --- compose stacks -------------------------------------------------------------------------------

function compose(): { argv: string[]; reason: string | null } {
  const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], {
    encoding: 'utf8',
    timeout: 20_000,
  })
  if (info.error) return { argv: [], reason: `docker CLI not usable: ${info.error.message}` }
  if (info.status !== 0)
    return { argv: [], reason: `Docker engine not reachable: ${(info.stderr || info.stdout).trim()}` }
  if (spawnSync('docker', ['compose', 'version'], { timeout: 20_000 }).status === 0) {
    return { argv: ['docker', 'compose'], reason: null }
  }
  if (spawnSync('docker-compose', ['version'], { timeout: 20_000 }).status === 0) {
    return { argv: ['docker-compose'], reason: null }
  }
  return { argv: [], reason: 'neither `docker compose` nor `docker-compose` is installed' }
}

const docker = compose()
const requireDocker = process.env['CANNONADE_REQUIRE_DOCKER'] === '1'

if (docker.reason) {
  if (requireDocker) {
    describe('compose stacks', () => {
      it('needs Docker (CANNONADE_REQUIRE_DOCKER=1)', () => {
        throw new Error(`Docker required but unavailable: ${docker.reason}`)
      })
    })
  } else {
    console.warn(
      `[compose] skipping the compose stacks: ${docker.reason} (set CANNONADE_REQUIRE_DOCKER=1 to fail instead)`,
    )
  }
}

const composeStacks = pick('CANNONADE_DOCKER_STACKS', ['node-http', 'java-jetty'])

describe.skipIf(docker.reason !== null || composeStacks.length === 0)('compose stacks', () => {
  for (const stack of composeStacks) {
    describe(stack.name, () => {
      // A project and port of its own, so a stack the user has up is left alone.
      const project = `cannonade-test-${stack.name}`
      let url = ''
      let env: NodeJS.ProcessEnv = process.env
      const run = (...args: string[]) => {
        const [cmd, ...pre] = docker.argv
        const r = spawnSync(
          cmd ?? 'docker',
          [...pre, '-p', project, '-f', path.join(repoRoot, stack.composeFile), ...args],
          {
            encoding: 'utf8',
            env,
            maxBuffer: 64 << 20,
          },
        )
        if (r.status !== 0) throw new Error(`compose ${args.join(' ')} failed: ${r.stderr || r.stdout}`)
        return r.stdout
      }

      beforeAll(async () => {
        const port = await freePort()
        env = { ...process.env, [stack.portEnv]: String(port) }
        url = `http://127.0.0.1:${port}`
        run('down', '-v', '--remove-orphans')
        const began = Date.now()
        run('up', '-d', '--build')
        const waited = await waitForHealth(url + stack.healthPath, { timeoutMs: 180_000, intervalMs: 250 })
        console.log(
          `[compose] ${stack.name} up + healthy in ${Date.now() - began} ms (health wait ${waited} ms)`,
        )
      }, 900_000)
      afterAll(() => {
        try {
          run('down', '-v', '--remove-orphans')
        } catch (err) {
          console.warn(String(err))
        }
      }, 120_000)

      it('runs with the CPU and memory limits of stacks.json', () => {
        for (const [service, limit] of Object.entries(stack.limits)) {
          const id = run('ps', '-q', service).trim()
          expect(id, `container of ${service}`).not.toBe('')
          const inspect = spawnSync(
            'docker',
            ['inspect', '--format', '{{.HostConfig.NanoCpus}} {{.HostConfig.Memory}}', id],
            {
              encoding: 'utf8',
            },
          )
          const [nanoCpus, memory] = inspect.stdout.trim().split(' ').map(Number)
          expect(nanoCpus, `${service} NanoCpus`).toBe(Math.round(limit.cpus * 1e9))
          const m = /^(\d+)([kmg])$/.exec(limit.memory)
          const unit = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(m?.[2] ?? 'm') as 'k' | 'm' | 'g']
          expect(memory, `${service} Memory`).toBe(Number(m?.[1]) * unit)
        }
      })

      contract(() => url)
    })
  }
})
