// Cannonade and wrk side by side against servers as users run them, at their defaults (issue 28,
// "Done when"): nginx, embedded Tomcat (100 requests per connection), Jetty, Python's HTTP/1.0
// http.server, Go's net/http, Node.js http with and without maxRequestsPerSocket = 100, a Node.js
// server answering 204 and nginx's 304 to a conditional GET. Each server on CPU 1, each client alone
// on CPU 0 (taskset), the two alternated, BENCH_SERVERS_SECONDS (5) each on 10 connections; every
// server counts what it answered and on how many connections (engine/testing/servers.ts). Prints a
// markdown table: requests each client counted, the server's count of the same run, errors by kind,
// connections opened (Cannonade's own figure; the server's count of connections that carried a
// request, for both). `node bench/servers.ts`; BENCH_SERVERS_ONLY=tomcat,jetty for some of them.
import { execFile, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import {
  goServer,
  jetty,
  nginx304,
  nodeProcess,
  pythonServer,
  startNginx,
  tomcat,
  type RealServer,
} from '../engine/testing/servers.ts'

const SECONDS = Number(process.env.BENCH_SERVERS_SECONDS ?? 5)
/** wrk's warm-up of each server before anything is measured: a JVM compiles its hot code then. */
const WARMUP = Number(process.env.BENCH_SERVERS_WARMUP ?? 10)
/** Rounds per server: the clients take turns, the first one swapped each round. */
const ROUNDS = Number(process.env.BENCH_SERVERS_ROUNDS ?? 2)
const CONNECTIONS = 10
const ONLY = process.env.BENCH_SERVERS_ONLY?.split(',')
const CLI = fileURLToPath(new URL('../bin/cannonade.mjs', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'cannonade-bench-servers-'))
const run = promisify(execFile)
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const HAS_WRK = spawnSync('wrk', ['--version']).error === undefined

interface Case {
  name: string
  start(): Promise<{ server: RealServer; headers: Record<string, string> } | null>
}

const plain = (start: () => Promise<RealServer | null>) => async () => {
  const server = await start()
  return server ? { server, headers: {} } : null
}

const CASES: Case[] = [
  { name: 'nginx', start: plain(() => startNginx('nginx', "return 200 'ok';", '/x', {}, 1)) },
  { name: 'tomcat', start: plain(() => tomcat(1)) },
  { name: 'jetty', start: plain(() => jetty(1)) },
  { name: 'python', start: plain(() => pythonServer(1)) },
  { name: 'go', start: plain(() => goServer(1)) },
  { name: 'node', start: plain(() => nodeProcess('ok', 1)) },
  { name: 'node-max100', start: plain(() => nodeProcess('max100', 1)) },
  { name: 'node-204', start: plain(() => nodeProcess('204', 1)) },
  {
    name: 'nginx-304',
    start: async () => {
      const n = await nginx304(1)
      return n ? { server: n.server, headers: { 'If-None-Match': n.etag } } : null
    },
  },
]

interface Row {
  server: string
  round: number
  client: string
  requests: number
  /** Cannonade: requests still in flight when the window closed (answered, maybe, after it). */
  inflight: number
  rps: number
  counted: number
  errors: string
  opened: string
  serverConnections: number
}

async function cannonade(
  s: RealServer,
  headers: Record<string, string>,
): Promise<Omit<Row, 'server' | 'round'>> {
  s.zero()
  const out = join(dir, `${s.name}-${Date.now()}.json`)
  const args = ['run', s.url, '-c', String(CONNECTIONS), '-d', String(SECONDS), '--quiet', '--json', out]
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`)
  args.push('--db', join(dir, 'bench.db'))
  await run('taskset', ['-c', '0', process.execPath, CLI, ...args], { maxBuffer: 1 << 24 }).catch(
    (e: unknown) => e,
  )
  const j = JSON.parse(readFileSync(out, 'utf8')) as {
    targets: {
      answered: number
      throughput: number
      errors: Record<string, number>
      inflight: number
      connect?: { count: number }
    }[]
  }
  const t = j.targets[0]!
  const c = await s.count()
  const errors = Object.entries(t.errors).map(([k, n]) => `${k} ${fmt(n)}`)
  return {
    client: 'cannonade',
    requests: t.answered,
    inflight: t.inflight,
    rps: t.throughput,
    counted: c.requests,
    errors: errors.join(', ') || '0',
    opened: fmt(t.connect?.count ?? 0),
    serverConnections: c.connections,
  }
}

async function wrk(s: RealServer, headers: Record<string, string>): Promise<Omit<Row, 'server' | 'round'>> {
  s.zero()
  const args = ['-c', '0', 'wrk', '-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`]
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`)
  const { stdout } = await run('taskset', [...args, s.url])
  const num = (re: RegExp) => Number(re.exec(stdout)?.[1] ?? 0)
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout)
  const errors: string[] = []
  if (sock)
    ['connect', 'read', 'write', 'timeout'].forEach(
      (k, i) => Number(sock[i + 1]) && errors.push(`${k} ${fmt(Number(sock[i + 1]))}`),
    )
  const non2xx = num(/Non-2xx or 3xx responses: (\d+)/)
  if (non2xx) errors.push(`non-2xx or 3xx ${fmt(non2xx)}`)
  const c = await s.count()
  return {
    client: 'wrk',
    requests: num(/(\d+) requests in/),
    inflight: 0,
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    counted: c.requests,
    errors: errors.join(', ') || '0',
    opened: '-',
    serverConnections: c.connections,
  }
}

/** wrk on the server for WARMUP seconds, not counted: a JVM's first seconds are its compiler's. */
async function warmUp(s: RealServer, headers: Record<string, string>): Promise<void> {
  const args = ['-c', '0', 'wrk', '-t1', `-c${CONNECTIONS}`, `-d${WARMUP}s`]
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`)
  await run('taskset', [...args, s.url])
}

const rows: Row[] = []
for (const c of CASES) {
  if (ONLY && !ONLY.includes(c.name)) continue
  const started = await c.start().catch((err: unknown) => {
    console.error(`${c.name}: ${err instanceof Error ? err.message : String(err)}`)
    return null
  })
  if (!started) {
    console.error(`${c.name}: not run (not installed here)`)
    continue
  }
  const { server, headers } = started
  try {
    if (HAS_WRK && WARMUP > 0) await warmUp(server, headers)
    for (let round = 1; round <= ROUNDS; round++) {
      const clients = HAS_WRK ? [cannonade, wrk] : [cannonade]
      if (round % 2 === 0) clients.reverse()
      for (const client of clients) {
        const r = await client(server, headers)
        rows.push({ server: c.name, round, ...r })
        console.error(
          `${c.name} #${round} ${r.client}: ${fmt(r.requests)} requests, load ${loadavg()[0]!.toFixed(1)}`,
        )
      }
    }
  } finally {
    await server.stop()
  }
}

console.log(
  `\n${CONNECTIONS} connections, ${SECONDS} s each after ${WARMUP} s of wrk to warm the server, clients alternated; server on CPU 1, client on CPU 0; load average ${loadavg()[0]!.toFixed(1)}\n`,
)
console.log(
  "| server | round | client | requests | req/s | server's count | errors by kind | connections opened | server's connections |",
)
console.log('| --- | ---: | --- | ---: | ---: | ---: | --- | ---: | ---: |')
for (const r of rows)
  console.log(
    `| ${r.server} | ${r.round} | ${r.client} | ${fmt(r.requests)}${r.inflight ? ` + ${fmt(r.inflight)} in flight` : ''} | ${fmt(r.rps)} | ${fmt(r.counted)} | ${r.errors} | ${r.opened} | ${fmt(r.serverConnections)} |`,
  )
