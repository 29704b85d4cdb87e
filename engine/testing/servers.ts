// Real servers as users run them, at their defaults, each counting from its own side what it
// answered and on how many connections: the truth the conformance suite (engine/runner/conformance/)
// and the side-by-side table with wrk (bench/servers.ts) hold Cannonade's figures against.
// nginx counts in its access log (`$connection`, a serial number per connection); Node.js servers in
// the test's process. Each start says `null` when the server is not installed.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** What a server counted since its last zero(): requests answered, by status, and on how many connections. */
export interface ServerCount {
  requests: number
  /** Connections that carried a request (wrk opens one without a request first, to try the address). */
  connections: number
  statuses: Record<string, number>
}

export interface RealServer {
  name: string
  /** Where to send requests (with the path the case asks for). */
  url: string
  count(): Promise<ServerCount>
  zero(): void
  stop(): Promise<void>
}

export async function freePort(): Promise<number> {
  const probe = net.createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const port = (probe.address() as net.AddressInfo).port
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

export const hasNginx = () => spawnSync('nginx', ['-v']).error === undefined

/**
 * nginx 1 worker at its defaults (keepalive_requests 1000, keepalive_timeout 75 s) with `location`
 * as its one location block and `files` in its root; the access log says each request's status and
 * connection. `path` is appended to the URL.
 */
export async function startNginx(
  name: string,
  location: string,
  path = '/x',
  files: Record<string, string> = {},
  cpu?: number,
): Promise<RealServer | null> {
  if (!hasNginx()) return null
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-nginx-'))
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
  const port = await freePort()
  const log = join(dir, 'access.log')
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http { log_format counted '$connection $status'; access_log ${log} counted;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  server { listen 127.0.0.1:${port}; root ${dir}; location / { ${location} } } }
`,
  )
  const args = ['nginx', '-c', join(dir, 'nginx.conf'), '-p', dir]
  const child =
    cpu === undefined
      ? spawn(args[0]!, args.slice(1), { stdio: 'ignore' })
      : spawn('taskset', ['-c', String(cpu), ...args], { stdio: 'ignore' })
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; i < 50; i++) {
    if (
      await fetch(base).then(
        () => true,
        () => false,
      )
    ) {
      const zero = () => writeFileSync(log, '')
      zero()
      return {
        name,
        url: `${base}${path}`,
        zero,
        count: async () => {
          // nginx writes its log line as the request ends: a moment for the last ones.
          await new Promise((r) => setTimeout(r, 200))
          const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean)
          const statuses: Record<string, number> = {}
          for (const l of lines) {
            const status = l.split(' ')[1]!
            statuses[status] = (statuses[status] ?? 0) + 1
          }
          return {
            requests: lines.length,
            connections: new Set(lines.map((l) => l.split(' ')[0])).size,
            statuses,
          }
        },
        stop: async () => {
          child.kill('SIGTERM')
          await new Promise((r) => child.once('exit', r))
        },
      }
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill('SIGKILL')
  return null
}

/** A Node.js `http` server in this process: `handle` answers, the server counts. */
export async function startNodeServer(
  name: string,
  handle: http.RequestListener,
  setup: (s: http.Server) => void = () => {},
  path = '/x',
): Promise<RealServer> {
  let count: ServerCount = { requests: 0, connections: 0, statuses: {} }
  const served = new WeakSet<object>()
  const server = http.createServer((req, res) => {
    if (!served.has(req.socket)) {
      served.add(req.socket)
      count.connections++
    }
    res.on('finish', () => {
      count.requests++
      count.statuses[res.statusCode] = (count.statuses[res.statusCode] ?? 0) + 1
    })
    handle(req, res)
  })
  setup(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    name,
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}${path}`,
    zero: () => (count = { requests: 0, connections: 0, statuses: {} }),
    count: async () => {
      await new Promise((r) => setTimeout(r, 50))
      return { ...count, statuses: { ...count.statuses } }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A Node.js server answering 204 No Content (no Content-Length: Node sends none for a 204). */
export const node204 = () =>
  startNodeServer('node-204', (_req, res) => {
    res.statusCode = 204
    res.end()
  })

/** A Node.js server at its defaults answering `ok` (HEAD gets its headers only). */
export const nodeOk = (name = 'node-http', maxRequestsPerSocket?: number) =>
  startNodeServer(
    name,
    (_req, res) => res.end('ok'),
    (s) => {
      if (maxRequestsPerSocket !== undefined) s.maxRequestsPerSocket = maxRequestsPerSocket
    },
  )

/** nginx serving a static file: with its ETag in If-None-Match, every answer is a 304. */
export async function nginx304(): Promise<{ server: RealServer; etag: string } | null> {
  const server = await startNginx('nginx-304', 'try_files $uri =404;', '/page.html', {
    'page.html': 'hello\n',
  })
  if (!server) return null
  const etag = (await fetch(server.url)).headers.get('etag') ?? ''
  server.zero()
  return { server, etag }
}
