// Following a run the engine runs: its end, its log lines, and Ctrl-C.
import type { RunEndedEvent } from '../api/types.ts'
import type { EngineHost } from '../host/index.ts'
import type { CliContext } from './context.ts'

/**
 * Ctrl-C once calls `stop` (the run finishes its second and keeps every sample), twice `kill` (its
 * runner is killed; the run still ends, aborted). Returns the function that removes the handlers.
 */
export function onInterrupt(ctx: CliContext, stop: () => void, kill: () => void): () => void {
  let interrupts = 0
  const onSignal = () => {
    interrupts++
    if (interrupts === 1) {
      ctx.stderr.write(
        '\nstopping: finishing the current second and keeping every sample (Ctrl-C again to kill)\n',
      )
      stop()
    } else kill()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  return () => {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}

/**
 * Print the runner's log lines (a CPU it could not pin, a monitor that failed) as they come;
 * `quiet` keeps warnings and errors only (a run of agents says a lot at level info).
 */
export function printLogs(host: EngineHost, ctx: CliContext, opts: { quiet?: boolean } = {}): () => void {
  return host.local.onLog((e) => {
    if (opts.quiet && e.level === 'info') return
    ctx.stderr.write(`${e.level}: ${e.message}\n`)
  })
}

/** The end event of each run, kept from before the run starts so none is missed. */
export function endings(host: EngineHost): { ended(runId: number): Promise<RunEndedEvent>; off(): void } {
  const seen = new Map<number, RunEndedEvent>()
  const waiting = new Map<number, (e: RunEndedEvent) => void>()
  const off = host.runs.onEnded((e) => {
    seen.set(e.runId, e)
    waiting.get(e.runId)?.(e)
  })
  return {
    ended: (runId) =>
      new Promise((resolve) => {
        const e = seen.get(runId)
        if (e) resolve(e)
        else waiting.set(runId, resolve)
      }),
    off,
  }
}
