// A Node.js `http` server with `server.maxRequestsPerSocket = 100` (bench/client.ts's conformance
// target): beyond 100 requests on a connection Node answers 503 with `Connection: close` itself.
// It counts what it answered: GET /__counts returns {"ok": 2xx answered, "dropped": 503s} and resets
// them (that request is not counted). Prints its port on stdout once listening.
// Run as `taskset -c 1 node bench/node-target.ts`.
import { createServer } from 'node:http'

let ok = 0
let dropped = 0
const server = createServer((req, res) => {
  if (req.url === '/__counts') {
    res.end(JSON.stringify({ ok, dropped }))
    ok = 0
    dropped = 0
    return
  }
  ok++
  res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
})
server.maxRequestsPerSocket = 100
server.on('dropRequest', () => dropped++)
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number }
  process.stdout.write(`${port}\n`)
})
process.on('SIGTERM', () => process.exit(0))
