// The process startTargetProcess (target-process.ts) forks: one counting target, its URL told to
// the parent, its log of served requests sent when asked.
import { startTarget, type TargetOptions } from './target.ts'

const opts = JSON.parse(process.argv[2] ?? '{}') as TargetOptions
const target = await startTarget(opts)
process.send?.({ type: 'ready', url: target.url })
process.on('message', (m: { type: string }) => {
  if (m.type === 'served') process.send?.({ type: 'served', served: target.served })
})
const end = () => void target.close().then(() => process.exit(0))
process.on('SIGTERM', end)
process.on('disconnect', end)
