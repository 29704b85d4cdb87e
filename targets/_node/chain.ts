// Chained services: with CHAIN_DEPTH=D, a request is passed on over HTTP D times
// (to CHAIN_URL, or to this server itself) before the last hop handles it; every hop answers with
// what came back. The hop number travels in x-cannonade-hop. Server-Timing gains one entry per
// hop, `hopN;dur=` = how long hop N-1 waited for hop N, and db is the database time of the hop
// that did the work, so `app` at the entry covers the whole chain.
import http from 'node:http'
import { performance } from 'node:perf_hooks'
import type { IncomingMessage } from 'node:http'

export const HOP_HEADER = 'x-cannonade-hop'
const FORWARDED_REQUEST = ['content-type', 'authorization', 'x-correlation-id']
const FORWARDED_RESPONSE = ['location', 'allow', 'www-authenticate']
const TIMEOUT_MS = 30_000

export interface ChainReply {
  status: number
  type: string
  body: Buffer
  headers: Record<string, string>
  /** Database ms of the hop that did the work. */
  db: number
  /** `hop1;dur=…, hop2;dur=…` from this hop on. */
  timing: string
}

export class ChainError extends Error {
  status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

export interface Chain {
  depth: number
  /** The hop this request is at (0 at the entry); throws ChainError(400) on a malformed header. */
  hopOf(req: IncomingMessage): number
  forward(req: IncomingMessage, body: Buffer | null, nextHop: number): Promise<ChainReply>
  close(): void
}

export function createChain(depth: number, baseUrl: () => string): Chain {
  // Kept-alive connections between hops, as services calling each other keep them.
  const agent = new http.Agent({ keepAlive: true })
  return {
    depth,
    hopOf(req) {
      const raw = req.headers[HOP_HEADER]
      if (raw === undefined) return 0
      const value = Array.isArray(raw) ? raw[0] : raw
      if (!/^\d{1,2}$/.test(value ?? '') || Number(value) > depth) {
        throw new ChainError(400, `${HOP_HEADER} must be an integer between 0 and ${depth}`)
      }
      return Number(value)
    },
    forward(req, body, nextHop) {
      const url = new URL(req.url ?? '/', baseUrl())
      const headers: Record<string, string> = { [HOP_HEADER]: String(nextHop) }
      for (const name of FORWARDED_REQUEST) {
        const v = req.headers[name]
        if (typeof v === 'string') headers[name] = v
      }
      if (body) headers['content-length'] = String(body.length)
      const began = performance.now()
      return new Promise<ChainReply>((resolve, reject) => {
        const out = http.request(
          url,
          { method: req.method ?? 'GET', headers, agent, timeout: TIMEOUT_MS },
          (res) => {
            const chunks: Buffer[] = []
            res.on('data', (c: Buffer) => chunks.push(c))
            res.on('error', (err) =>
              reject(new ChainError(502, `hop ${nextHop} (${url.origin}): ${err.message}`)),
            )
            res.on('end', () => {
              const waited = performance.now() - began
              const own = parseTiming(String(res.headers['server-timing'] ?? ''))
              const kept: Record<string, string> = {}
              for (const name of FORWARDED_RESPONSE) {
                const v = res.headers[name]
                if (typeof v === 'string') kept[name] = v
              }
              resolve({
                status: res.statusCode ?? 502,
                type: String(res.headers['content-type'] ?? 'application/octet-stream'),
                body: Buffer.concat(chunks),
                headers: kept,
                db: own.db,
                timing: [`hop${nextHop};dur=${waited.toFixed(3)}`, ...own.hops].join(', '),
              })
            })
          },
        )
        out.on('timeout', () =>
          out.destroy(
            new ChainError(
              504,
              `hop ${nextHop} (${url.origin}) did not answer within ${TIMEOUT_MS / 1000} s`,
            ),
          ),
        )
        out.on('error', (err) =>
          reject(
            err instanceof ChainError
              ? err
              : new ChainError(502, `hop ${nextHop} (${url.origin}): ${err.message}`),
          ),
        )
        out.end(body ?? undefined)
      })
    },
    close: () => agent.destroy(),
  }
}

/** db;dur and the hopN entries of a downstream Server-Timing header. */
function parseTiming(value: string): { db: number; hops: string[] } {
  let db = 0
  const hops: string[] = []
  for (const part of value.split(',')) {
    const entry = part.trim()
    const m = /^([a-z0-9]+);dur=([\d.]+)$/i.exec(entry)
    if (!m) continue
    if (m[1] === 'db') db = Number(m[2])
    else if (/^hop\d+$/.test(m[1] ?? '')) hops.push(entry)
  }
  return { db, hops }
}
