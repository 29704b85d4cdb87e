// Real servers as users run them, at their defaults, each counting from its own side what it
// answered and on how many connections: the truth the conformance suite (engine/runner/conformance/)
// and the side-by-side table with wrk (bench/servers.ts) hold Cannonade's figures against.
// nginx counts in its access log (`$connection`, a serial number per connection); Node.js servers in
// the test's process; Tomcat, Jetty, Go's net/http and Python's http.server (bench/servers/, built
// here with Maven and go build on first use) behind GET /__count. Each start says `null` when the
// server or its toolchain is not installed.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

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
export async function nginx304(cpu?: number): Promise<{ server: RealServer; etag: string } | null> {
  const files = { 'page.html': 'hello\n' }
  const server = await startNginx('nginx-304', 'try_files $uri =404;', '/page.html', files, cpu)
  if (!server) return null
  const etag = (await fetch(server.url)).headers.get('etag') ?? ''
  server.zero()
  return { server, etag }
}

const SERVERS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'servers')
const JAVA_DIR = join(SERVERS_DIR, 'java')

/**
 * A server of bench/servers/ as a child process on a free port (on CPU `cpu` when given), counting
 * what it answered behind GET /__count; null with the reason when it cannot run here.
 */
async function startCounting(
  name: string,
  command: string[],
  cpu: number | undefined,
  path = '/x',
): Promise<RealServer> {
  const port = await freePort()
  const args = [...command, String(port)]
  const child =
    cpu === undefined
      ? spawn(args[0]!, args.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] })
      : spawn('taskset', ['-c', String(cpu), ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)))
  const base = `http://127.0.0.1:${port}`
  const get = async (p: string) =>
    (await fetch(`${base}${p}`)).json() as Promise<{ requests: number; connections: number }>
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) break
    if (
      await get('/__zero').then(
        () => true,
        () => false,
      )
    ) {
      return {
        name,
        url: `${base}${path}`,
        zero: () => void get('/__zero').catch(() => {}),
        count: async () => {
          const c = await get('/__count')
          return { requests: c.requests, connections: c.connections, statuses: { 200: c.requests } }
        },
        stop: async () => {
          if (child.exitCode !== null) return
          child.kill('SIGTERM')
          await new Promise((r) => child.once('exit', r))
        },
      }
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill('SIGKILL')
  throw new Error(`${name} did not start on port ${port}: ${stderr.trim() || 'no output'}`)
}

/** Build what a server needs once: the Java servers with Maven, the Go server with go build. */
function built(what: 'java' | 'go'): string | null {
  if (what === 'java') {
    const classes = join(JAVA_DIR, 'target', 'classes')
    if (!existsSync(join(classes, 'bench', 'TomcatServer.class'))) {
      if (spawnSync('mvn', ['-v']).error !== undefined) return null
      const r = spawnSync('mvn', ['-q', '-B', '-f', join(JAVA_DIR, 'pom.xml'), 'package'], {
        stdio: 'inherit',
      })
      if (r.status !== 0) return null
    }
    return `${classes}:${join(JAVA_DIR, 'target', 'lib', '*')}`
  }
  const out = join(SERVERS_DIR, 'go', 'go-server')
  if (!existsSync(out)) {
    if (spawnSync('go', ['version']).error !== undefined) return null
    const r = spawnSync('go', ['build', '-o', out, '.'], { cwd: join(SERVERS_DIR, 'go'), stdio: 'inherit' })
    if (r.status !== 0) return null
  }
  return out
}

/** Embedded Tomcat at its defaults (maxKeepAliveRequests 100), built with Maven; null without Java. */
export async function tomcat(cpu?: number): Promise<RealServer | null> {
  const cp = built('java')
  return cp ? startCounting('tomcat', ['java', '-cp', cp, 'bench.TomcatServer'], cpu) : null
}

/** Jetty 12 at its defaults, built with Maven; null without Java. */
export async function jetty(cpu?: number): Promise<RealServer | null> {
  const cp = built('java')
  return cp ? startCounting('jetty', ['java', '-cp', cp, 'bench.JettyServer'], cpu) : null
}

/** Go's net/http at its defaults, built with go build; null without Go. */
export async function goServer(cpu?: number): Promise<RealServer | null> {
  const bin = built('go')
  return bin ? startCounting('go-net-http', [bin], cpu) : null
}

/** Python's http.server (HTTP/1.0, a connection per request); null without python3. */
export async function pythonServer(cpu?: number): Promise<RealServer | null> {
  if (spawnSync('python3', ['--version']).error !== undefined) return null
  return startCounting('python-http.server', ['python3', join(SERVERS_DIR, 'python_server.py')], cpu)
}

/** A Node.js `http` server in a process of its own (so it can be pinned): `ok`, `204` or `max100`. */
export function nodeProcess(mode: 'ok' | '204' | 'max100', cpu?: number): Promise<RealServer> {
  const name = { ok: 'node-http', '204': 'node-204', max100: 'node-http max100' }[mode]
  return startCounting(name, [process.execPath, join(SERVERS_DIR, 'node_server.mjs'), mode], cpu)
}
