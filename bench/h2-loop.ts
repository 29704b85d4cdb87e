// One bare HTTP/2 load loop, for bench/h2.ts to measure candidate clients beside h2load without
// the rest of a run (no ledger, no driver): `node bench/h2-loop.ts MODE URL CONNECTIONS STREAMS
// SECONDS`, MODE `own` (the runner's own framing layer, engine/runner/h2/, under a host that
// sends again at once) or `node` (Node's http2 module: a session per connection, a stream per
// request). Prints `{ completed, errors, cpuUs }` as JSON: cpuUs is the process' user + system
// CPU over the load window alone (its start, module loading, is left out). `node --cpu-prof` on it shows where a
// client's microseconds go.
import http2 from 'node:http2'
import { H2Connection } from '../engine/runner/h2/connection.ts'
import { buildH2Request } from '../engine/runner/h2/request.ts'
import type { ConnectionHost, LoadConnection } from '../engine/runner/load-connection.ts'

const [mode, target, c, m, s] = process.argv.slice(2)
const url = new URL(target!)
const connections = Number(c)
const streams = Number(m)
const seconds = Number(s)
let running = true
let completed = 0
let errors = 0
let seq = 0

function own(): LoadConnection[] {
  const request = buildH2Request({
    method: 'GET',
    url,
    headers: {},
    body: null,
    correlationHeader: 'x-correlation-id',
    correlationPrefix: 'bench',
  })
  const host: ConnectionHost = {
    pump(conn) {
      while (running && !conn.closed && conn.inFlight < conn.pipelining)
        conn.send(seq++, performance.now(), -1, 0)
    },
    connected() {},
    response() {
      if (running) completed++
    },
    failed() {
      if (running) errors++
    },
    connectFailed() {
      if (running) errors++
    },
    stepFailed() {},
    nextIteration: () => 0,
  }
  const secure = url.protocol === 'https:'
  const socket = {
    secure,
    hostname: url.hostname,
    port: Number(url.port),
    insecure: true,
    ...(secure ? { alpn: ['h2'] } : {}),
  }
  return Array.from(
    { length: connections },
    (_, i) => new H2Connection(i, { url, streams, socket }, request, host),
  )
}

function node(): http2.ClientHttp2Session[] {
  const sessions = Array.from({ length: connections }, () =>
    http2.connect(url.origin, { rejectUnauthorized: false }),
  )
  const send = (session: http2.ClientHttp2Session) => {
    if (!running || session.destroyed) return
    const id = `bench-${String(seq++).padStart(10, '0')}`
    const req = session.request({ ':path': url.pathname, 'x-correlation-id': id })
    req.on('response', () => {})
    req.on('error', () => running && errors++)
    req.on('end', () => {
      if (running) completed++
      send(session)
    })
    req.resume()
  }
  for (const session of sessions) {
    session.on('error', () => running && errors++)
    for (let i = 0; i < streams; i++) send(session)
  }
  return sessions
}

const cpu0 = process.cpuUsage()
const ended = mode === 'own' ? own() : node()
setTimeout(() => {
  running = false
  for (const e of ended) if ('close' in e && typeof e.close === 'function') e.close()
  const cpu = process.cpuUsage(cpu0)
  process.stdout.write(JSON.stringify({ completed, errors, cpuUs: cpu.user + cpu.system }) + '\n')
  process.exit(0)
}, seconds * 1000)
