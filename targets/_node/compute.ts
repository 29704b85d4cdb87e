// GET /compute: PBKDF2-SHA256, the CPU-bound task. With `split=K` (task splitting) the
// N iterations are cut into K parts, part i hashing salt "cannonade-salt:i" with N/K iterations
// (the first N mod K parts one more), and the answer's hash is SHA-256 of the K part hashes in
// order. Who computes the parts is the runtime's business: node-http computes them one after
// another itself, node-cluster's primary hands them to its workers (cluster.ts), Java to threads.
import crypto from 'node:crypto'

export const COMPUTE_PASSWORD = 'cannonade'
export const COMPUTE_SALT = 'cannonade-salt'

/** One part's hash and who computed it (a pid, a thread name). */
export interface PartResult {
  hash: string
  worker: string
}

/** Computes the parts (iterations per part, in order) and resolves to their results in the same order. */
export type SplitRunner = (parts: number[]) => Promise<PartResult[]>

export function partIterations(iterations: number, split: number): number[] {
  const base = Math.floor(iterations / split)
  const extra = iterations % split
  return Array.from({ length: split }, (_, i) => base + (i < extra ? 1 : 0))
}

/** Synchronous on purpose: the work runs on the event loop, as the studies comparing one process and a cluster assume. */
export function computeHash(iterations: number): string {
  return crypto.pbkdf2Sync(COMPUTE_PASSWORD, COMPUTE_SALT, iterations, 32, 'sha256').toString('hex')
}

export function computePart(index: number, iterations: number): string {
  return crypto
    .pbkdf2Sync(COMPUTE_PASSWORD, `${COMPUTE_SALT}:${index}`, iterations, 32, 'sha256')
    .toString('hex')
}

export function joinParts(parts: readonly PartResult[]): string {
  const sha = crypto.createHash('sha256')
  for (const p of parts) sha.update(Buffer.from(p.hash, 'hex'))
  return sha.digest('hex')
}

/** node-http: this process computes every part, one after another. */
export const localSplit: SplitRunner = (parts) =>
  Promise.resolve(parts.map((n, i) => ({ hash: computePart(i, n), worker: String(process.pid) })))
