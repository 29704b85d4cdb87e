// node-cluster: the same API (app.ts) in WORKERS processes under the cluster module.
// The primary only forks and supervises; workers share the listening port (round-robin on Linux).
// Each worker has its own pg Pool of POOL_SIZE connections: WORKERS × POOL_SIZE in total.
import cluster from 'node:cluster'
import { start } from './app.ts'

if (cluster.isPrimary) {
  const raw = process.env['WORKERS'] || '2'
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 256) {
    console.error(`WORKERS must be an integer between 1 and 256, got ${JSON.stringify(raw)}`)
    process.exit(2)
  }
  const workers = Number(raw)
  let stopping = false
  let restarts = 0
  console.log(`[cluster] primary ${process.pid} forking ${workers} workers`)
  for (let i = 0; i < workers; i++) cluster.fork()
  cluster.on('exit', (worker, code, signal) => {
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
    cluster.fork()
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
  await start()
}
