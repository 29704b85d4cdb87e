// Node.js `http` at its defaults, answering "ok" (or 204 No Content, or with maxRequestsPerSocket =
// 100), and counting what it answered: requests, and the connections that carried them. GET
// /__count reads the count as JSON, GET /__zero starts over; neither is counted.
// Usage: node node_server.mjs ok|204|max100 PORT.
import http from 'node:http'

const [mode, port] = process.argv.slice(2)
let requests = 0
let connections = new WeakSet()
let connectionCount = 0
const server = http.createServer((req, res) => {
  if (req.url === '/__count' || req.url === '/__zero') {
    if (req.url === '/__zero') {
      requests = 0
      connections = new WeakSet()
      connectionCount = 0
    }
    return res.end(JSON.stringify({ requests, connections: connectionCount }))
  }
  requests++
  if (!connections.has(req.socket)) {
    connections.add(req.socket)
    connectionCount++
  }
  if (mode === '204') {
    res.statusCode = 204
    return res.end()
  }
  res.end('ok')
})
if (mode === 'max100') server.maxRequestsPerSocket = 100
server.listen(Number(port), '127.0.0.1', () => console.log(`listening ${port}`))
