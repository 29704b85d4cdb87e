// A server that answers as a hostile or broken API would (tests only): over HTTP, or HTTPS with a
// self-signed certificate, each request answered by what the test scripts for it: any status,
// headers and body, a body of many megabytes, a gzip bomb, an endless body, a body trickled a byte
// at a time, a redirect elsewhere, or no answer at all. It records what reached it (method, path,
// headers, body), so a test can also show what was never sent.
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttps } from 'node:https'
import { writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { selfSigned } from './tls.ts'

export interface HostileAnswer {
  status?: number
  headers?: Record<string, string>
  /** The body as it is (JSON values are stringified). */
  body?: string | Buffer | object
  /** Megabytes of filler inside a JSON string: `{"x":"aaa…"}` (valid JSON, just large). */
  megabytes?: number
  /** A gzip bomb: this many megabytes of zeros, sent gzipped (a few KB) with content-encoding. */
  gzipMegabytes?: number
  /** Never ends: megabytes as fast as the client reads. */
  endless?: boolean
  /** One byte of `body` every this many ms. */
  trickleMs?: number
  /** Accept and never answer. */
  silent?: boolean
  /** Answer this many ms late. */
  delayMs?: number
  /** Answer once this settles (a test says when). */
  after?: Promise<unknown>
}

export interface Received {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: string
}

export type Script = (req: Received) => HostileAnswer

const bombs = new Map<number, Buffer>()
/** A gzip bomb of `mb` megabytes of zeros (made once: call it before a test whose deadline is short). */
export function gzipBomb(mb: number): Buffer {
  let b = bombs.get(mb)
  if (!b) {
    b = gzipSync(Buffer.alloc(mb * 1024 * 1024), { level: 9 })
    bombs.set(mb, b)
  }
  return b
}

function bodyOf(a: HostileAnswer): Buffer {
  if (a.body === undefined) return Buffer.alloc(0)
  if (Buffer.isBuffer(a.body)) return a.body
  return Buffer.from(typeof a.body === 'string' ? a.body : JSON.stringify(a.body))
}

function answer(res: ServerResponse, a: HostileAnswer, timers: Set<NodeJS.Timeout>): void {
  if (a.silent) return
  const headers = { 'content-type': 'application/json', ...a.headers }
  if (a.gzipMegabytes) {
    res.writeHead(a.status ?? 200, { ...headers, 'content-encoding': 'gzip' })
    return void res.end(gzipBomb(a.gzipMegabytes))
  }
  res.writeHead(a.status ?? 200, headers)
  if (a.megabytes !== undefined || a.endless) {
    const chunk = Buffer.alloc(1 << 20, 'a')
    let left = a.endless ? Infinity : a.megabytes!
    res.write('{"x":"')
    const more = () => {
      while (left > 0 && !res.destroyed) {
        left--
        if (!res.write(chunk)) return void res.once('drain', more)
      }
      if (!res.destroyed) res.end('"}')
    }
    return more()
  }
  const body = bodyOf(a)
  if (!a.trickleMs) return void res.end(body)
  let i = 0
  const tick = () => {
    if (res.destroyed) return
    if (i >= body.length) return void res.end()
    res.write(body.subarray(i, ++i))
    const t = setTimeout(tick, a.trickleMs)
    timers.add(t)
  }
  tick()
}

export interface HostileServer {
  url: string
  port: number
  /** The certificate a client must trust (https only). */
  cert: string
  received: Received[]
  script: Script
  close(): Promise<void>
}

export async function startHostile(script: Script, opts: { https?: boolean } = {}): Promise<HostileServer> {
  const received: Received[] = []
  const timers = new Set<NodeJS.Timeout>()
  const tls = opts.https ? selfSigned() : null
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const r: Received = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      received.push(r)
      res.on('error', () => {})
      const a = server.script(r)
      if (a.after) return void a.after.then(() => answer(res, a, timers))
      if (!a.delayMs) return answer(res, a, timers)
      const t = setTimeout(() => answer(res, a, timers), a.delayMs)
      timers.add(t)
    })
  }
  const srv: Server = tls ? createHttps({ key: tls.key, cert: tls.cert }, handler) : createHttp(handler)
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r))
  const port = (srv.address() as AddressInfo).port
  const server: HostileServer = {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    cert: tls?.cert ?? '',
    received,
    script,
    async close() {
      for (const t of timers) clearTimeout(t)
      srv.closeAllConnections()
      await new Promise<void>((r) => srv.close(() => r()))
    },
  }
  return server
}

/** A Prometheus range answer of `series` (labels and [seconds, value] points, values as given). */
export function promMatrix(
  series: { metric: Record<string, string>; values: [unknown, unknown][] }[],
): object {
  return { status: 'success', data: { resultType: 'matrix', result: series } }
}

/** The query_range form's start, end and step (seconds) of a request to a Prometheus stand-in. */
export function promRange(r: Received): { start: number; end: number; step: number } {
  const f = new URLSearchParams(r.body)
  return { start: Number(f.get('start')), end: Number(f.get('end')), step: Number(f.get('step')) }
}

/** A kubeconfig trusting `server` (https), its token `token`, namespace `namespace`. */
export function kubeconfigFor(server: HostileServer, token = 'hostile-token', namespace = 'shop'): string {
  return `apiVersion: v1
kind: Config
current-context: h
clusters:
- name: h
  cluster:
    server: ${server.url}
    certificate-authority-data: ${Buffer.from(server.cert).toString('base64')}
contexts:
- name: h
  context: { cluster: h, user: u, namespace: ${namespace} }
users:
- name: u
  user: { token: ${token} }
`
}

/** A kubeconfig for `server` whose user runs `script` (written into `dir`) as its exec plugin. */
export function execKubeconfig(server: HostileServer, dir: string, script: string): string {
  writeFileSync(join(dir, 'plugin.mjs'), script)
  return kubeconfigFor(server).replace(
    'user: { token: hostile-token }',
    `user:\n    exec: { apiVersion: client.authentication.k8s.io/v1, command: ${process.execPath}, args: [${join(dir, 'plugin.mjs')}] }`,
  )
}
