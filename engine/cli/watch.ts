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

/**
 * Agents a person starts (`--on external`): what each runs, printed once even with --quiet (the
 * run waits for them), then who joined as they do.
 */
export function printJoin(host: EngineHost, ctx: CliContext): () => void {
  let shown = false
  const joined = new Set<number>()
  return host.runs.onAgents((e) => {
    if (!e.join && !shown) return
    if (e.join && !shown) {
      shown = true
      const j = e.join
      ctx.stderr.write(
        `waiting for ${j.count} agent${j.count === 1 ? '' : 's'} to join (up to ${j.timeoutSeconds} s). ` +
          `Start each, INDEX 0${j.count > 1 ? ` … ${j.count - 1}` : ''}, where it reaches the targets and the store:\n` +
          `  ${j.command}\n` +
          (j.passwordMasked
            ? "  (the store's password is masked here: give the URL with it, or CANNONADE_STORE_URL_FILE=FILE holding the URL)\n"
            : ''),
      )
    }
    for (const a of e.agents) {
      if (joined.has(a.index)) continue
      joined.add(a.index)
      ctx.stderr.write(
        `agent ${a.index} joined from ${a.host} (${joined.size} of ${e.agents.length + e.waiting.length})\n`,
      )
    }
  })
}
