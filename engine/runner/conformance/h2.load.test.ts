// The HTTP/2 load client against servers that each do one thing (issue 31, item 3): what
// Cannonade reports must equal the server's own counts. Targets: engine/testing/h2-targets.ts (Node's HTTP/2
// server, nghttp2). Where h2load and curl (nghttp2-client, Debian's curl) are installed, they run
// on the same target as the reference. docs/http-conformance.md has the table.
import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import http2 from 'node:http2'
import { afterEach, describe, expect, it } from 'vitest'
import type { TargetRoundSummary } from '../../api/types.ts'
import { runConfig } from '../../testing/run-config.ts'
import { answer, startH2Target, type H2Target, type H2TargetOptions } from '../../testing/h2-targets.ts'

let target: H2Target | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

const hasH2load = spawnSync('h2load', ['--version']).error === undefined
const hasCurl = spawnSync('curl', ['--version']).error === undefined
// CI installs both (.ci/run): there a missing reference is a failure, elsewhere a printed skip.
for (const [tool, has] of [
  ['h2load', hasH2load],
  ['curl', hasCurl],
] as const) {
  if (has) continue
  if (process.env['CI'])
    throw new Error(`${tool} is not installed: .ci/run installs it (nghttp2-client, curl)`)
  console.log(
    `${tool} is not installed: its reference checks are left out (apt-get install nghttp2-client curl)`,
  )
}

async function start(o: H2TargetOptions): Promise<H2Target> {
  target = await startH2Target(o)
  return target
}

/** A 1 s run on 2 connections × `streams` of GET (or `method` with `body`) `url`/x. */
/** The run's one target and round, with the run's warnings beside it. */
type Round = TargetRoundSummary & { runWarnings: string[] }

async function run(
  t: H2Target,
  extra: Record<string, unknown> = {},
  load: Record<string, unknown> = {},
): Promise<Round> {
  const result = await runConfig({
    version: 1,
    name: 'h2 conformance',
    targets: [
      {
        name: 't',
        url: `${t.url}/x`,
        protocol: t.url.startsWith('https') ? 'h2' : 'h2c',
        insecure: true,
        streams: 4,
        ...extra,
      },
    ],
    load: { connections: 2, duration: 1, timeoutMs: 5_000, ...load },
    cooldownSeconds: 0,
  })
  return { ...result.summary.results[0]!, runWarnings: result.summary.warnings.map((w) => w.message) }
}

const errorsBut = (r: TargetRoundSummary, ...allowed: string[]) =>
  Object.fromEntries(
    Object.entries(r.errors).filter(([k, n]) => k !== 'inflight' && !allowed.includes(k) && n),
  )

/** Every response the server finished was a success or in flight at the window's end. */
function expectAnswered(r: TargetRoundSummary, t: H2Target): void {
  expect(r.ok).toBeGreaterThan(0)
  expect(r.ok).toBeLessThanOrEqual(t.answered)
  expect(t.answered).toBeLessThanOrEqual(r.ok + (r.errors.inflight ?? 0))
}

const exec = promisify(execFile)

/** A behaviour that answers every stream `status` with `body`, counted as answered. */
const answerWith =
  (status: number, body = '') =>
  (stream: http2.ServerHttp2Stream, _nth: number, t: H2Target): boolean => {
    stream.respond({ ':status': status, 'content-type': 'application/json' })
    stream.end(body, () => t.answered++)
    return true
  }

/** One connection, one stream, exactly `requests` requests. */
const counted = (requests: number) => ({ connections: 1, duration: undefined, requests })

/** h2load's counts on `t` (2 connections × `streams`, 1 s); the target runs in this process, so never a sync spawn. */
async function h2load(
  t: H2Target,
  streams = 4,
  args: string[] = [],
): Promise<{ done: number; succeeded: number; failed: number; errored: number }> {
  t.zero()
  const { stdout: out } = await exec('h2load', ['-c2', `-m${streams}`, '-D1', ...args, `${t.url}/x`], {
    timeout: 20_000,
  })
  const n = (re: RegExp) => Number(re.exec(out)?.[1] ?? -1)
  return {
    done: n(/(\d+) done/),
    succeeded: n(/(\d+) succeeded/),
    failed: n(/(\d+) failed/),
    errored: n(/(\d+) errored/),
  }
}

/** curl's status and HTTP version for one request to `t` over HTTP/2. */
async function curl(t: H2Target, args: string[] = []): Promise<string> {
  const how = t.url.startsWith('https') ? ['--http2', '-k'] : ['--http2-prior-knowledge']
  const w = ['-s', '-o', '/dev/null', '-w', '%{http_code} %{http_version}']
  return (await exec('curl', [...w, ...how, ...args, `${t.url}/x`], { timeout: 20_000 })).stdout
}

describe('HTTP/2 conformance (issue 31, item 3)', () => {
  it('h2c and h2 over TLS: every response the server finished is counted, no errors; h2load and curl agree', async () => {
    for (const tls of [false, true]) {
      const t = await start({ tls })
      const r = await run(t)
      expect(errorsBut(r)).toEqual({})
      expectAnswered(r, t)
      expect(r.connect!.count).toBeLessThanOrEqual(t.sessions)
      if (hasH2load) {
        const h = await h2load(t)
        expect(h.failed + h.errored).toBe(0)
        expect(h.succeeded).toBeLessThanOrEqual(t.answered)
      } else
        console.log(
          'h2load is not installed (apt-get install nghttp2-client): its reference count is not taken',
        )
      if (hasCurl) expect(await curl(t)).toBe('200 2')
      await t.close()
      target = null
    }
  })

  it('SETTINGS_MAX_CONCURRENT_STREAMS 2 with streams 10: never more than 2 open at once, none refused', async () => {
    const t = await start({ settings: { maxConcurrentStreams: 2 } })
    const r = await run(t, { streams: 10 })
    expect(errorsBut(r)).toEqual({})
    expectAnswered(r, t)
    expect(t.maxConcurrent).toBe(2)
    // Shown: the limit is kept with the round and said in the run's warnings.
    expect(r.streamLimit).toBe(2)
    expect(r.runWarnings).toContainEqual(
      expect.stringContaining('the server allows 2 concurrent streams per connection'),
    )
    if (hasH2load) {
      // h2load opens its streams before the SETTINGS arrive: those above the limit are refused.
      const h = await h2load(t, 10)
      expect(h.succeeded).toBeLessThanOrEqual(t.answered)
      console.log(`h2load, SETTINGS_MAX_CONCURRENT_STREAMS 2 with -m10: ${JSON.stringify(h)}`)
    }
  })

  it('SETTINGS late (300 ms): the requests wait for them, and the wait is the preface, not latency', async () => {
    const t = await start({ lateSettingsMs: 300 })
    const r = await run(t)
    expect(errorsBut(r)).toEqual({})
    expectAnswered(r, t)
    // The relay held the server's SETTINGS 300 ms: each connection's setup took at least that.
    expect(r.connect!.min).toBeGreaterThanOrEqual(300_000)
    if (hasCurl) expect(await curl(t)).toBe('200 2')
  })

  it('a 1-byte window: request bodies go a byte at a time and arrive whole', async () => {
    const t = await start({ settings: { initialWindowSize: 1 } })
    const r = await run(t, { method: 'POST', body: 'x'.repeat(64), streams: 2 })
    expect(errorsBut(r)).toEqual({})
    expectAnswered(r, t)
    // Every request the server read to its end brought its 64 bytes.
    // (but those cut off by the window's end: in flight then)
    expect(t.bodyShort).toBeLessThanOrEqual(r.errors.inflight ?? 0)
    expect(t.bodyBytes).toBeGreaterThanOrEqual(64 * t.answered)
    if (hasCurl) expect(await curl(t, ['-d', 'x'.repeat(64)])).toBe('200 2')
  })

  it('GOAWAY without an error after every 50th stream: streams in flight finish, the connection reopens, no errors', async () => {
    const t = await start({
      behaviour: (stream, nth, tt, session) => {
        if (nth !== 50) return false
        answer(stream, tt)
        session.close()
        return true
      },
    })
    const r = await run(t)
    // Streams above the GOAWAY's last id, which the server never processed, go again on the new connection.
    expect(errorsBut(r)).toEqual({})
    expectAnswered(r, t)
    expect(t.sessions).toBeGreaterThan(2)
    if (hasH2load) {
      // h2load does not send again what a GOAWAY left unprocessed: it counts those streams as errored.
      const h = await h2load(t)
      expect(h.succeeded).toBeLessThanOrEqual(t.answered)
      console.log(`h2load, graceful GOAWAY every 50th stream: ${JSON.stringify(h)}`)
    }
  })

  it('GOAWAY with an error code: the streams it ends are `goaway` errors', async () => {
    const t = await start({
      behaviour: (_stream, nth, _t, session) => {
        if (nth !== 20) return false
        session.goaway(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM)
        setTimeout(() => session.destroy(), 20)
        return true
      },
    })
    const r = await run(t)
    expect(errorsBut(r, 'goaway', 'closed')).toEqual({})
    expect(r.errors.goaway ?? 0).toBeGreaterThan(0)
    expectAnswered(r, t)
  })

  it('RST_STREAM on every 10th stream: each is a `stream_reset`, REFUSED_STREAM a `stream_refused`', async () => {
    for (const [code, kind] of [
      [http2.constants.NGHTTP2_INTERNAL_ERROR, 'stream_reset'],
      [http2.constants.NGHTTP2_REFUSED_STREAM, 'stream_refused'],
    ] as const) {
      let resets = 0
      const t = await start({
        behaviour: (stream, nth) => {
          if (nth % 10 !== 0) return false
          resets++
          stream.close(code)
          return true
        },
      })
      const r = await run(t)
      expect(errorsBut(r, kind)).toEqual({})
      expectAnswered(r, t)
      // Every reset the server sent is counted, but those in flight when the window closed.
      expect(r.errors[kind]).toBeGreaterThan(0)
      expect(r.errors[kind]).toBeLessThanOrEqual(resets)
      expect(resets - r.errors[kind]!).toBeLessThanOrEqual(r.errors.inflight ?? 0)
      if (hasH2load) {
        resets = 0
        const h = await h2load(t)
        // h2load's successes are answers the server finished; what it did with the resets is printed.
        expect(h.succeeded).toBeLessThanOrEqual(t.answered)
        console.log(`h2load, ${kind} every 10th: ${JSON.stringify(h)} · the server reset ${resets}`)
      }
      await t.close()
      target = null
    }
  })

  it('PING answered, pushes refused (SETTINGS_ENABLE_PUSH 0)', async () => {
    let pushAllowed = 0
    const t = await start({
      ping: true,
      behaviour: (stream) => {
        if (stream.pushAllowed) pushAllowed++
        return false
      },
    })
    const r = await run(t)
    expect(errorsBut(r)).toEqual({})
    expectAnswered(r, t)
    expect(t.pingsAnswered).toBe(t.sessions)
    expect(pushAllowed).toBe(0)
  })

  it('statuses by the rule: 200–399 succeed, any other is a `status` error; `expect` replaces the rule', async () => {
    const statuses = [200, 304, 404]
    const t = await start({ behaviour: (stream, nth, tt) => answerWith(statuses[nth % 3]!)(stream, nth, tt) })
    const r = await run(t, { streams: 1 }, counted(30))
    expect(r.ok).toBe(20)
    expect(r.errors).toEqual({ status: 10 })
    expect(r.unexpected).toEqual({ '404': 10 })
    const strict = await run(t, { streams: 1, expect: { status: [200] } }, counted(30))
    expect(strict.ok).toBe(10)
    expect(strict.errors).toEqual({ status: 20 })
    expect(strict.unexpected).toEqual({ '304': 10, '404': 10 })
  })

  it('a scenario step outside its rule, or whose capture finds nothing, fails; the steps after it are skipped', async () => {
    const steps = [
      {
        name: 'login',
        method: 'POST',
        path: '/login',
        body: '{}',
        capture: { token: { json: 'data.token' } },
      },
      { name: 'me', path: '/me', headers: { authorization: 'Bearer ${token}' } },
    ]
    for (const [status, kind] of [
      [401, 'status'],
      [200, 'capture'],
    ] as const) {
      const t = await start({ behaviour: answerWith(status, '{"data":{}}') })
      const r = await run(t, { streams: 1, steps }, counted(20))
      expect(t.received).toBe(20)
      expect(r.errors, kind).toEqual({ [kind]: 20 })
      const [login, me] = r.steps!
      expect(login!.errors).toEqual({ [kind]: 20 })
      expect(me!.requests).toBe(0)
      expect(me!.skipped).toEqual({ login: 20 })
      await t.close()
      target = null
    }
  })

  it('a connection that cannot open fails the request it was opened for: refused, an untrusted certificate, no SETTINGS in time', async () => {
    const gone = await start({})
    await gone.close()
    target = null
    const refused = await run(gone)
    expect(refused.ok).toBe(0)
    expect(refused.errors.refused ?? 0).toBeGreaterThan(0)
    expect(errorsBut(refused, 'refused')).toEqual({})
    const tls = await start({ tls: true })
    const untrusted = await run(tls, { insecure: false })
    expect(untrusted.ok).toBe(0)
    expect(untrusted.errors.tls ?? 0).toBeGreaterThan(0)
    expect(errorsBut(untrusted, 'tls')).toEqual({})
    expect(tls.received).toBe(0)
    await tls.close()
    const late = await start({ lateSettingsMs: 3_000 })
    const slow = await run(late, {}, { timeoutMs: 200 })
    expect(slow.ok).toBe(0)
    expect(slow.errors.timeout ?? 0).toBeGreaterThan(0)
    expect(errorsBut(slow, 'timeout')).toEqual({})
    // Nothing was sent on a connection that never became ready.
    expect(late.received).toBe(0)
  })

  it('a 1 GB response body: counted byte by byte, never kept', async () => {
    const GB = 1 << 30
    const t = await start({ bodyBytes: GB })
    const r = await run(
      t,
      { streams: 1 },
      { connections: 1, duration: undefined, requests: 1, timeoutMs: 60_000 },
    )
    expect(errorsBut(r)).toEqual({})
    expect(r.ok).toBe(1)
    // The stream's frames: the body, a 9-byte header per DATA frame and the header block.
    expect(r.bytes).toBeGreaterThan(GB)
    expect(r.bytes).toBeLessThan(GB * 1.001)
  })
})
