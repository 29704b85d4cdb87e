// POST /api/<channel>: one Api call. The body is a JSON array of arguments, parsed by the
// channel's schema in dispatch (engine/api/transport/dispatch.ts); the answer is 200 and the
// result as JSON, or the ApiError's status and `{error}`. A body over MAX_BODY is refused unread.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Api } from '../api/api.ts'
import { isChannel } from '../api/channels.ts'
import { HTTP_STATUS, toErrorBody } from '../api/errors.ts'
import { dispatch } from '../api/transport/dispatch.ts'
import { decodePath } from './guard.ts'
import { logRefusal, sendError, sendJson, type Log } from './reply.ts'

const MAX_BODY = 4 * 1024 * 1024

/**
 * The body as text, or null once it passes MAX_BODY (declared or sent): the caller answers 413 and
 * closes the connection, so the rest of a huge body is never read.
 */
function readBody(req: IncomingMessage): Promise<string | null> {
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > MAX_BODY) return Promise.resolve(null)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY) return void chunks.push(chunk)
      req.off('data', onData)
      req.off('end', onEnd)
      resolve(null)
    }
    const onEnd = () => resolve(Buffer.concat(chunks).toString('utf8'))
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', reject)
  })
}

/**
 * 413, then close: a client still sending a huge body would otherwise keep the connection half
 * read. The close lingers: what the client sends after the answer is read and dropped until it
 * closes (a second at most), because closing a socket with unread bytes resets the connection, and
 * a reset can discard the 413 before the client reads it. Node closes a `Connection: close`
 * response's socket with destroySoon when it has one and with end() otherwise (resOnFinish in
 * Node's _http_server.js); end() is the half-close wanted here.
 */
function refuseTooLarge(req: IncomingMessage, res: ServerResponse, what: string): void {
  const socket = req.socket
  Object.defineProperty(socket, 'destroySoon', { value: undefined, configurable: true })
  res.shouldKeepAlive = false
  sendError(res, 413, { code: 'bad-input', message: `${what}: request body over ${MAX_BODY} bytes` })
  req.resume()
  socket.resume()
  const timer = setTimeout(() => socket.destroy(), 1000)
  timer.unref()
  socket.once('close', () => clearTimeout(timer))
}

/** The channel a path names (`/api/runs%3Alist` → `runs:list`), or a 400 for a malformed escape. */
function channelOf(req: IncomingMessage, res: ServerResponse, url: URL, log: Log): string | null {
  const name = decodePath(url.pathname.slice('/api/'.length))
  if (name === null) {
    logRefusal(log, req, 400, 'malformed %-escape in the channel name')
    sendError(res, 400, { code: 'bad-input', message: 'malformed %-escape in the channel name' })
  }
  return name
}

export async function serveApi(
  api: Api,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  log: Log,
): Promise<void> {
  const name = channelOf(req, res, url, log)
  if (name === null) return
  if (!isChannel(name)) {
    sendError(res, 404, { code: 'not-found', message: `no such channel: ${name.slice(0, 100)}` })
    return
  }
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST')
    sendError(res, 405, { code: 'bad-input', message: `${name}: use POST with a JSON array of arguments` })
    return
  }
  const text = await readBody(req)
  if (text === null) {
    logRefusal(log, req, 413, `body over ${MAX_BODY} bytes`)
    refuseTooLarge(req, res, name)
    return
  }
  let args: unknown
  try {
    args = text.trim() === '' ? [] : JSON.parse(text)
  } catch {
    sendError(res, 400, { code: 'bad-input', message: `${name}: body is not valid JSON` })
    return
  }
  try {
    sendJson(res, 200, await dispatch(api, name, args))
  } catch (err) {
    const body = toErrorBody(err)
    sendError(res, HTTP_STATUS[body.code], body)
  }
}
