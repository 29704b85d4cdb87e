// What a stack started with HTTP2=on and TLS=on serves (targets/README.md, "HTTP/2 and TLS"), as one
// vitest suite to run against a running server: HTTP/1.1 and h2c by prior knowledge on its port,
// h2 and HTTP/1.1 chosen by ALPN on its TLS port, each answering the API with the correlation id
// echoed and Server-Timing, request bodies over HTTP/2 arriving whole (past the 64 KiB initial
// window), a certificate made at start-up for 127.0.0.1 that a verifying client refuses; then curl
// (--http2-prior-knowledge, --http2 -k) and Cannonade's own load client on each protocol.
// targets/contract.pg.test.ts runs it natively, targets/contract.docker.test.ts under Docker.
import { execFile, spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import http2 from 'node:http2'
import https from 'node:https'
import type { TLSSocket } from 'node:tls'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { runConfig } from '../../engine/testing/run-config.ts'

export interface ProtocolTarget {
  /** http://127.0.0.1:PORT */
  base: string
  /** https://127.0.0.1:TLS_PORT */
  tlsBase: string
}

const exec = promisify(execFile)
const hasCurl = spawnSync('curl', ['--version']).error === undefined
const TIMING = /^app;dur=\d+(\.\d+)?, db;dur=\d+(\.\d+)?$/

interface H2Answer {
  status: number
  headers: http2.IncomingHttpHeaders
  body: Buffer
  alpn: string | undefined
}

/** One HTTP/2 request on a new session (h2c by prior knowledge, or h2 over TLS without verification). */
async function h2Request(base: string, path: string, o: { method?: string; body?: Buffer; id: string }) {
  const session = http2.connect(base, { rejectUnauthorized: false })
  try {
    return await new Promise<H2Answer>((resolve, reject) => {
      session.once('error', reject)
      const headers = { ':method': o.method ?? 'GET', ':path': path, 'x-correlation-id': o.id }
      const stream = session.request(headers, { endStream: o.body === undefined })
      stream.setTimeout(20_000, () => stream.close(http2.constants.NGHTTP2_CANCEL))
      const chunks: Buffer[] = []
      let head: http2.IncomingHttpHeaders = {}
      stream.on('response', (h) => (head = h))
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () =>
        resolve({
          status: Number(head[':status']),
          headers: head,
          body: Buffer.concat(chunks),
          alpn: session.alpnProtocol,
        }),
      )
      stream.on('error', reject)
      if (o.body !== undefined) stream.end(o.body)
    })
  } finally {
    session.close()
  }
}

/** HTTP/1.1 over TLS (ALPN http/1.1): status and the TLS socket's facts. */
function h1OverTls(
  url: string,
  verify: boolean,
): Promise<{ status: number; alpn: string | false | null; san: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get(
      url,
      { rejectUnauthorized: verify, ALPNProtocols: ['http/1.1'], agent: false } as https.RequestOptions,
      (res) => {
        const socket = res.socket as TLSSocket
        const facts = {
          status: res.statusCode ?? 0,
          alpn: socket.alpnProtocol,
          san: socket.getPeerCertificate().subjectaltname ?? '',
        }
        res.resume()
        res.on('end', () => resolve(facts))
      },
    )
    req.setTimeout(20_000, () => req.destroy(new Error('no answer in 20 s')))
    req.on('error', reject)
  })
}

async function curl(args: string[]): Promise<string> {
  const w = ['-s', '-o', '/dev/null', '-w', '%{http_code} %{http_version}', '--max-time', '20']
  return (await exec('curl', [...w, ...args], { timeout: 30_000 })).stdout
}

/** The checks, against the server `target()` names once its suite's beforeAll has run. */
export function protocolChecks(target: () => ProtocolTarget): void {
  it('HTTP/1.1 on its port, as by default', async () => {
    const res = await fetch(`${target().base}/ads/1`, { headers: { 'x-correlation-id': 'h1-plain' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-correlation-id')).toBe('h1-plain')
    expect(((await res.json()) as { id: number }).id).toBe(1)
  })

  for (const [name, base] of [
    ['h2c by prior knowledge on its port', () => target().base],
    ['h2 by ALPN on its TLS port', () => target().tlsBase],
  ] as const) {
    it(`${name}: the API answers, correlation id and Server-Timing included`, async () => {
      const id = base().startsWith('https') ? 'h2-over-tls' : 'h2c-prior-knowledge'
      const r = await h2Request(base(), '/ads/1', { id })
      expect(r.status).toBe(200)
      expect(r.alpn).toBe(base().startsWith('https') ? 'h2' : 'h2c')
      expect(r.headers['x-correlation-id']).toBe(id)
      expect(String(r.headers['server-timing'])).toMatch(TIMING)
      expect((JSON.parse(r.body.toString()) as { id: number }).id).toBe(1)
      const missing = await h2Request(base(), '/ads/999999999', { id: 'h2-404' })
      expect(missing.status).toBe(404)
    })

    it(`${name}: a 200 KiB request body arrives whole (flow control past the 64 KiB window)`, async () => {
      const body = crypto.randomBytes(200 * 1024)
      const r = await h2Request(base(), '/payload', { method: 'POST', body, id: 'h2-body' })
      expect(r.status).toBe(200)
      const got = JSON.parse(r.body.toString()) as { bytes: number; sha256: string }
      expect(got).toMatchObject({
        bytes: body.length,
        sha256: crypto.createHash('sha256').update(body).digest('hex'),
      })
    })
  }

  it('HTTP/1.1 by ALPN on its TLS port; a certificate for 127.0.0.1 that a verifying client refuses', async () => {
    const r = await h1OverTls(`${target().tlsBase}/health`, false)
    expect(r.status).toBe(200)
    // Offered http/1.1 alone, Tomcat selects nothing (no ALPN is HTTP/1.1); Jetty and Node say http/1.1.
    expect([false, 'http/1.1']).toContain(r.alpn)
    expect(r.san).toContain('IP Address:127.0.0.1')
    await expect(h1OverTls(`${target().tlsBase}/health`, true)).rejects.toThrow(/self[- ]signed|certificate/i)
  })

  it('curl: HTTP/2 with prior knowledge, and over TLS (-k)', async () => {
    if (!hasCurl) return console.log('curl is not installed: its HTTP/2 checks are left out')
    expect(await curl(['--http2-prior-knowledge', `${target().base}/ads/1`])).toBe('200 2')
    expect(await curl(['--http2', '-k', `${target().tlsBase}/ads/1`])).toBe('200 2')
    expect(await curl(['--http1.1', '-k', `${target().tlsBase}/ads/1`])).toBe('200 1.1')
  })

  it("Cannonade's load client on h2c and h2 (2 connections × 4 streams, 1 s each after a warm-up): answers, no errors", async () => {
    const t = target()
    const target1 = (name: string, url: string, protocol: string) => ({
      name,
      url,
      protocol,
      streams: 4,
      insecure: url.startsWith('https'),
    })
    const { summary } = await runConfig({
      version: 1,
      name: 'stack protocols',
      targets: [target1('h2c', `${t.base}/ads/1`, 'h2c'), target1('h2', `${t.tlsBase}/ads/1`, 'h2')],
      // A warm-up first: a JVM's first TLS handshakes at one CPU can take longer than the window.
      load: { connections: 2, duration: 1, warmupSeconds: 3, timeoutMs: 10_000 },
      schedule: 'interleaved',
      cooldownSeconds: 0,
    })
    expect(summary.status).toBe('done')
    for (const r of summary.results) {
      expect(r.ok, `${r.target}: ${JSON.stringify(r.errors)}`).toBeGreaterThan(0)
      expect(
        Object.entries(r.errors).filter(([k]) => k !== 'inflight'),
        r.target,
      ).toEqual([])
    }
  }, 60_000)
}
