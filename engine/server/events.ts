// GET /api/events, the event socket: a WebSocket that carries every Api event to every open page
// as `{event, payload}` (runs:progress at 1 Hz, runs:ended, …). It is one-way (server → page); a
// page that stops answering pings, or cannot keep up, is cut.
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import type { Api } from '../api/api.ts'
import { subscribeAll } from '../api/transport/client.ts'

// A client that cannot keep up with 1 Hz snapshots is gone; don't buffer for it forever.
const MAX_BUFFERED = 8 * 1024 * 1024
const HEARTBEAT_MS = 30_000

export interface EventSocket {
  /** Takes over an upgrade the gate admitted (ws answers a malformed handshake with a 400 itself). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void
  /** Stops the events and the heartbeat, and closes every page's socket (1001). */
  close(): Promise<void>
  /** Cuts the sockets that did not close. */
  terminate(): void
}

export function eventSocket(host: Api): EventSocket {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 })
  const alive = new WeakMap<WebSocket, boolean>()
  wss.on('connection', (ws: WebSocket) => {
    alive.set(ws, true)
    ws.on('pong', () => alive.set(ws, true))
    // The socket is one-way (server → page); anything the page sends is ignored.
    ws.on('error', () => ws.terminate())
  })
  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (alive.get(ws) === false) {
        ws.terminate()
        continue
      }
      alive.set(ws, false)
      ws.ping()
    }
  }, HEARTBEAT_MS)
  heartbeat.unref()

  const unsubscribe = subscribeAll(host, (event, payload) => {
    if (wss.clients.size === 0) return
    const message = JSON.stringify({ event, payload })
    for (const ws of wss.clients) {
      if (ws.readyState !== ws.OPEN) continue
      if (ws.bufferedAmount > MAX_BUFFERED) ws.terminate()
      else ws.send(message)
    }
  })

  return {
    upgrade: (req, socket, head) =>
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
    async close() {
      clearInterval(heartbeat)
      unsubscribe()
      for (const ws of wss.clients) ws.close(1001, 'server shutting down')
      await new Promise<void>((resolve) => wss.close(() => resolve()))
    },
    terminate() {
      for (const ws of wss.clients) ws.terminate()
    },
  }
}
