// node-cluster: the same API (app.ts) in WORKERS processes under the cluster module.
// The primary forks and supervises; workers share the listening port (round-robin on Linux).
// Each worker has its own pg Pool of POOL_SIZE connections: WORKERS × POOL_SIZE in total.
// Task splitting (/compute?split=K): the worker that got the request asks the primary,
// which hands the K parts to K workers in turn (more parts than workers: some get several), joins
// their results in order and answers the asking worker.
import cluster from 'node:cluster'
import type { Worker } from 'node:cluster'
import { start } from './app.ts'
import type { App } from './app.ts'
import { computePart } from './compute.ts'
import type { PartResult, SplitRunner } from './compute.ts'
import { createMetrics } from './metrics.ts'
import type { Snapshot } from './metrics.ts'

type ToPrimary =
  | { type: 'split'; id: number; parts: number[] }
  | { type: 'part-done'; key: string; index: number; hash: string; worker: string }
  | { type: 'metrics'; id: number }
  | { type: 'snapshot'; key: number; snapshot: Snapshot | null }
type ToWorker =
  | { type: 'part'; key: string; index: number; iterations: number }
  | { type: 'split-done'; id: number; results: PartResult[] }
  | { type: 'split-failed'; id: number; error: string }
  | { type: 'snapshot'; key: number }
  | { type: 'metrics-done'; id: number; snapshots: Snapshot[] }

/** How long /metrics waits for the workers' figures before answering with those it has. */
const GATHER_MS = 2000

if (cluster.isPrimary) {
  const raw = process.env['WORKERS'] || '2'
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 256) {
    console.error(`WORKERS must be an integer between 1 and 256, got ${JSON.stringify(raw)}`)
    process.exit(2)
  }
  const workers = Number(raw)
  let stopping = false
  let restarts = 0

  /** Splits in progress, by `<asking worker id>:<its request id>`. */
  const splits = new Map<
    string,
    { origin: Worker; id: number; results: (PartResult | null)[]; left: number; on: Set<number> }
  >()
  let nextWorker = 0
  const send = (w: Worker | undefined, m: ToWorker) => {
    if (w?.isConnected()) w.send(m)
  }
  const alive = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined)

  // GET /metrics on any worker: the primary's own figures and every worker's, summed by the asker.
  const own = createMetrics()
  const gathers = new Map<number, { got: Snapshot[]; left: number; done: () => void }>()
  let nextGather = 0
  const gather = (origin: Worker, id: number) => {
    const key = nextGather++
    const workers = alive()
    const got: Snapshot[] = [own.snapshot()]
    const done = () => {
      if (!gathers.delete(key)) return
      clearTimeout(timer)
      send(origin, { type: 'metrics-done', id, snapshots: got })
    }
    const timer = setTimeout(done, GATHER_MS)
    gathers.set(key, { got, left: workers.length, done })
    for (const w of workers) send(w, { type: 'snapshot', key })
  }
  const onMessage = (from: Worker, m: ToPrimary) => {
    if (m.type === 'metrics') return gather(from, m.id)
    if (m.type === 'snapshot') {
      const g = gathers.get(m.key)
      if (!g) return
      if (m.snapshot) g.got.push(m.snapshot)
      if (--g.left <= 0) g.done()
      return
    }
    if (m.type === 'split') {
      const workers = alive()
      const key = `${from.id}:${m.id}`
      const split = {
        origin: from,
        id: m.id,
        results: m.parts.map(() => null),
        left: m.parts.length,
        on: new Set<number>(),
      }
      splits.set(key, split)
      m.parts.forEach((iterations, index) => {
        const w = workers[(nextWorker + index) % workers.length] as Worker
        split.on.add(w.id)
        send(w, { type: 'part', key, index, iterations })
      })
      nextWorker = (nextWorker + m.parts.length) % Math.max(1, workers.length)
    } else if (m.type === 'part-done') {
      const split = splits.get(m.key)
      if (!split || split.results[m.index]) return
      split.results[m.index] = { hash: m.hash, worker: m.worker }
      if (--split.left === 0) {
        splits.delete(m.key)
        send(split.origin, { type: 'split-done', id: split.id, results: split.results as PartResult[] })
      }
    }
  }

  console.log(`[cluster] primary ${process.pid} forking ${workers} workers`)
  const fork = () => {
    const w = cluster.fork()
    w.on('message', (m: ToPrimary) => onMessage(w, m))
  }
  for (let i = 0; i < workers; i++) fork()
  cluster.on('exit', (worker, code, signal) => {
    // Splits that waited on this worker can no longer complete: their requests get a 500.
    for (const [key, split] of splits) {
      if (!split.on.has(worker.id) && split.origin !== worker) continue
      splits.delete(key)
      send(split.origin, { type: 'split-failed', id: split.id, error: `worker ${worker.process.pid} died` })
    }
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0)
      return
    }
    console.error(`[cluster] worker ${worker.process.pid} died (${signal ?? code})`)
    // Replace a crashed worker, but do not spin when workers die at start (bad config).
    if (++restarts > workers * 5) {
      console.error('[cluster] too many worker deaths, giving up')
      process.exit(1)
    }
    fork()
  })
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    console.log(`[cluster] ${signal}: stopping workers`)
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM')
    setTimeout(() => process.exit(0), 5000).unref()
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
} else {
  const waiting = new Map<number, { resolve: (r: PartResult[]) => void; reject: (e: Error) => void }>()
  const scrapes = new Map<number, (s: Snapshot[]) => void>()
  let nextId = 0
  // Set once listening; a snapshot asked for before that is answered with none.
  const ready: { app?: App } = {}
  process.on('message', (m: ToWorker) => {
    if (m.type === 'snapshot') {
      process.send?.({ type: 'snapshot', key: m.key, snapshot: ready.app?.metrics.snapshot() ?? null })
    } else if (m.type === 'metrics-done') {
      scrapes.get(m.id)?.(m.snapshots)
      scrapes.delete(m.id)
    } else if (m.type === 'part') {
      // Synchronous, like /compute itself: this worker's event loop is busy for the part.
      const hash = computePart(m.index, m.iterations)
      process.send?.({ type: 'part-done', key: m.key, index: m.index, hash, worker: String(process.pid) })
    } else {
      const w = waiting.get(m.id)
      waiting.delete(m.id)
      if (m.type === 'split-done') w?.resolve(m.results)
      else w?.reject(new Error(m.error))
    }
  })
  const split: SplitRunner = (parts) =>
    new Promise((resolve, reject) => {
      const id = nextId++
      waiting.set(id, { resolve, reject })
      process.send?.({ type: 'split', id, parts })
    })
  // The primary answers within GATHER_MS; should it not (stopping), this worker's own figures.
  const gather = () =>
    new Promise<Snapshot[]>((resolve) => {
      const id = nextId++
      const timer = setTimeout(() => {
        scrapes.delete(id)
        resolve(ready.app ? [ready.app.metrics.snapshot()] : [])
      }, GATHER_MS + 1000)
      scrapes.set(id, (s) => {
        clearTimeout(timer)
        resolve(s)
      })
      process.send?.({ type: 'metrics', id })
    })
  ready.app = await start(process.env, { split, gather })
}
