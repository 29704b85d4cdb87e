// How the web transport answers and logs: JSON bodies (results and `{error}` in the Api's wire
// form), one log line per refused request, and a route's failure after it started.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { toErrorBody, type ErrorBody } from '../api/errors.ts'
import { describeRequest } from './guard.ts'

export type Log = (line: string) => void

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body === undefined ? null : body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  })
  res.end(text)
}

export function sendError(res: ServerResponse, status: number, error: ErrorBody): void {
  sendJson(res, status, { error })
}

/** The one log line of a refused request: its status, method and path (no query), and why. */
export function logRefusal(log: Log, req: IncomingMessage, status: number, message: string): void {
  log(`${status} ${describeRequest(req)}: ${message}`)
}

/** A route's failure after it started: a 500 if nothing was sent yet, else the connection is cut. */
export function failed(req: IncomingMessage, res: ServerResponse, log: Log) {
  return (err: unknown) => {
    logRefusal(log, req, 500, err instanceof Error ? err.message : String(err))
    if (!res.headersSent) sendError(res, 500, toErrorBody(err))
    else res.destroy()
  }
}
