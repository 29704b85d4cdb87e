// Reading what a request carries: query integers, bodies (bounded), JSON fields. Errors are
// HttpErrors, which the app turns into `{"error": …}` answers.
import crypto from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { MAX_BODY_BYTES } from './config.ts'

export class HttpError extends Error {
  status: number
  headers: Record<string, string> | undefined
  constructor(status: number, message: string, headers?: Record<string, string>) {
    super(message)
    this.status = status
    this.headers = headers
  }
}

export function intParam(
  params: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = params.get(name)
  if (raw === null) return fallback
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new HttpError(400, `${name} must be an integer between ${min} and ${max}`)
  }
  return Number(raw)
}

/** The whole body; 413 past `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw new HttpError(413, `request body larger than ${limit} bytes`)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req, MAX_BODY_BYTES)
  let value: unknown
  try {
    value = JSON.parse(raw.toString('utf8'))
  } catch {
    throw new HttpError(400, 'request body must be valid JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'request body must be a JSON object')
  }
  return value as Record<string, unknown>
}

export interface Received {
  bytes: number
  sha256: string
  kind: 'json' | 'text'
}

/**
 * POST /payload: counts and hashes the body as it streams in; a JSON body (content-type
 * application/json) is also parsed, as a service receiving one would, and 400 if it is not JSON.
 */
export async function receivePayload(req: IncomingMessage, limit: number): Promise<Received> {
  const kind = /^application\/json\b/i.test(req.headers['content-type'] ?? '') ? 'json' : 'text'
  const sha = crypto.createHash('sha256')
  const chunks: Buffer[] = []
  let bytes = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    bytes += chunk.length
    if (bytes > limit) throw new HttpError(413, `request body larger than ${limit} bytes`)
    sha.update(chunk)
    if (kind === 'json') chunks.push(chunk)
  }
  if (kind === 'json') {
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      throw new HttpError(400, 'request body must be valid JSON (content-type is application/json)')
    }
  }
  return { bytes, sha256: sha.digest('hex'), kind }
}

export function stringField(body: Record<string, unknown>, name: string, min: number, max: number): string {
  const value = body[name]
  if (typeof value !== 'string' || value.length < min || value.length > max) {
    throw new HttpError(400, `${name} must be a string of ${min} to ${max} characters`)
  }
  return value
}
