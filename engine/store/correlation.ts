// Correlation ids: `<prefix>-<seq>` with seq zero-padded to 10 digits (`k3f9a2c1-0000000042`).
// Fixed width keeps ids cheap to write into a request template in place (the runner's
// connection.ts) and makes them sort in send order as text. The runner formats them, the history
// parses them back.

export const SEQ_DIGITS = 10
const MAX_SEQ = 10 ** SEQ_DIGITS - 1
// A prefix never holds '-', so the last '-' separates it from the sequence number.
const PREFIX = /^[A-Za-z0-9_]{1,32}$/
const SEQ = new RegExp(`^\\d{1,${SEQ_DIGITS}}$`)

export function formatCorrelationId(prefix: string, seq: number): string {
  if (!PREFIX.test(prefix))
    throw new RangeError(`correlation prefix "${prefix}" must be 1-32 letters, digits or _`)
  if (!Number.isInteger(seq) || seq < 0 || seq > MAX_SEQ) {
    throw new RangeError(`correlation sequence ${seq} must be a whole number from 0 to ${MAX_SEQ}`)
  }
  return `${prefix}-${String(seq).padStart(SEQ_DIGITS, '0')}`
}

export interface CorrelationId {
  prefix: string
  seq: number
}

/**
 * Parse `<prefix>-<seq>`; null when the text is not a correlation id. Leading zeros are optional so
 * a user may type `k3f9a2c1-42`; a bare number is not accepted (it names no run).
 */
export function parseCorrelationId(id: string): CorrelationId | null {
  const text = id.trim()
  const dash = text.lastIndexOf('-')
  if (dash <= 0) return null
  const prefix = text.slice(0, dash)
  const digits = text.slice(dash + 1)
  if (!PREFIX.test(prefix) || !SEQ.test(digits)) return null
  return { prefix, seq: Number(digits) }
}
