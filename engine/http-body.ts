// HTTP answers from outside (a monitor's Prometheus, Cloud Foundry or Kubernetes API, the agents'
// cluster API), read within bounds: a size limit on the bytes held (counted after decompression,
// so a gzip bomb stops at the limit too) and a total deadline on the whole exchange, not only an
// idle one, so neither a 1 GB answer nor a server trickling a byte a second holds the process. The
// callers say what they read in their messages; this module only stops the reading.
import type { IncomingMessage } from 'node:http'

/** What a monitor or cluster client holds of one answer at most, unless it says otherwise. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024

/** An answer longer than its reader takes. */
export class BodyTooLarge extends Error {
  readonly maxBytes: number
  constructor(maxBytes: number) {
    super(`its answer is larger than ${Math.round(maxBytes / 1024 / 1024)} MB, more than is read`)
    this.name = 'BodyTooLarge'
    this.maxBytes = maxBytes
  }
}

/** A node:http(s) response's body, at most `maxBytes`: past it the response is destroyed. */
export function collectBody(res: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    res.on('data', (c: Buffer) => {
      size += c.length
      if (size > maxBytes) {
        chunks.length = 0
        const err = new BodyTooLarge(maxBytes)
        res.destroy(err)
        reject(err)
        return
      }
      chunks.push(c)
    })
    res.on('error', reject)
    res.on('aborted', () => reject(new Error('the answer was cut off')))
    res.on('end', () => resolve(Buffer.concat(chunks, size)))
  })
}

/** A fetch Response's body as text (decoded as fetch decoded it), at most `maxBytes`. */
export async function responseText(res: Response, maxBytes = MAX_BODY_BYTES): Promise<string> {
  if (!res.body) return ''
  const reader = (res.body as ReadableStream<Uint8Array>).getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const next = await reader.read()
    if (next.done) break
    const value: Uint8Array = next.value
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      throw new BodyTooLarge(maxBytes)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks, size).toString('utf8')
}

/**
 * Lines of a streamed answer (a pod's log), none longer than `maxLine` bytes: a longer one is cut
 * there and marked, so a server that never sends a line end cannot grow the buffer without bound.
 */
export function lineSplitter(
  onLine: (line: string) => void,
  maxLine = 64 * 1024,
): { push(chunk: Buffer): void; end(): void } {
  let held: Buffer[] = []
  let heldBytes = 0
  let cut = false
  const emit = (last: Buffer) => {
    if (!cut) held.push(last.subarray(0, Math.max(0, maxLine - heldBytes)))
    const line = Buffer.concat(held).toString('utf8').replace(/\r$/, '')
    onLine(cut || heldBytes + last.length > maxLine ? `${line} [cut at ${maxLine} bytes]` : line)
    held = []
    heldBytes = 0
    cut = false
  }
  return {
    push(chunk) {
      let start = 0
      for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
        emit(chunk.subarray(start, nl))
        start = nl + 1
      }
      const rest = chunk.subarray(start)
      if (cut || rest.length === 0) return
      const room = maxLine - heldBytes
      held.push(rest.subarray(0, room))
      heldBytes += Math.min(rest.length, room)
      if (rest.length > room) cut = true
    },
    end() {
      if (heldBytes > 0 || cut) emit(Buffer.alloc(0))
    },
  }
}
