// The connections dockerode opens to a Docker engine, bounded in what they may receive: dockerode
// (docker-modem) gathers a whole answer before it parses it, with no limit, and the engine is
// wherever a config's socketPath or the Docker host setting points. Each socket may receive at most
// MAX_BYTES in any WINDOW_MS (a list or an inspect is a few KB, a stats stream ~2 KB a second):
// past it the socket is destroyed with an error naming the limit, so a hostile or broken engine's
// gigabyte answer costs at most that much memory, and the call's own deadline (docker.ts) covers
// the time.
import { Agent as HttpAgent } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import type { Duplex } from 'node:stream'

export const DOCKER_MAX_BYTES = 32 * 1024 * 1024
const WINDOW_MS = 10_000

/** Destroy `socket` once it has received more than `maxBytes` within a window. */
function bound(socket: Duplex, maxBytes: number): Duplex {
  let since = Date.now()
  let bytes = 0
  socket.on('data', (chunk: Buffer) => {
    const now = Date.now()
    if (now - since > WINDOW_MS) {
      since = now
      bytes = 0
    }
    bytes += chunk.length
    if (bytes > maxBytes)
      socket.destroy(
        new Error(
          `the Docker engine answered more than ${Math.round(maxBytes / 1024 / 1024)} MB within ${WINDOW_MS / 1000} s, more than is read`,
        ),
      )
  })
  return socket
}

type CreateConnection = (options: object, cb?: (err: Error | null, socket: Duplex) => void) => Duplex

/** An agent (http for a socket or tcp://, https for TLS) whose connections are bounded. */
export function boundedAgent(tls: boolean, maxBytes = DOCKER_MAX_BYTES): HttpAgent {
  const agent = tls ? new HttpsAgent({ keepAlive: false }) : new HttpAgent({ keepAlive: false })
  const inner = (agent as unknown as { createConnection: CreateConnection }).createConnection.bind(agent)
  ;(agent as unknown as { createConnection: CreateConnection }).createConnection = (options, cb) =>
    bound(inner(options, cb), maxBytes)
  return agent
}
