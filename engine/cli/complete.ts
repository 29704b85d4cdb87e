// The file is the record (issue 19): before a command returns, every ended run's requests are
// `samples` rows. A run reads `done` when its window closes and its ledger blocks become rows
// afterwards; this writes what is left, with a progress line on a terminal, or says why it has not
// (Ctrl-C, a run measuring on this database, a read-only database) and which command finishes it.
// Until then every Cannonade reader reads blocks and rows alike: nothing is missing, only not yet
// in `samples` for a query of the user's own.
import type { EngineHost } from '../host/index.ts'
import type { CliContext } from './context.ts'

const count = (n: number) => n.toLocaleString('en-US')
const total = (host: EngineHost) => host.local.ledgerPending().reduce((n, p) => n + p.rows, 0)

/** The command that finishes the job, named in every message that leaves rows unwritten. */
export const COMPLETE_COMMAND = 'cannonade runs complete'

/** Resolves with why it stopped early: a Ctrl-C, or a run that started measuring here. */
function interruptions(host: EngineHost): { stopped: Promise<string>; off(): void } {
  let off = () => {}
  const stopped = new Promise<string>((resolve) => {
    const onSignal = () => resolve('stopped (Ctrl-C)')
    const timer = setInterval(() => {
      const held = host.local.ledgerHeld()
      if (held) resolve(held)
    }, 250)
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
    off = () => {
      clearInterval(timer)
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    }
  })
  return { stopped, off: () => off() }
}

/** A self-rewriting line on a terminal while rows are written; nothing elsewhere. */
function progressLine(
  ctx: CliContext,
  of: number,
  quiet: boolean,
): { update(left: number): void; clear(): void } {
  const on = ctx.isTTY && !quiet
  const started = performance.now()
  return {
    update(left) {
      if (!on) return
      const done = of - left
      const rate = done / Math.max(0.001, (performance.now() - started) / 1000)
      ctx.stderr.write(
        `\r\x1b[2Kwriting samples rows: ${count(done)} of ${count(of)} requests (${Math.floor((100 * done) / of)} %, ${count(Math.round(rate))}/s)`,
      )
    },
    clear() {
      if (on) ctx.stderr.write('\r\x1b[2K')
    },
  }
}

/**
 * Write every ended run's pending requests as rows, or say why not. Returns the requests left in
 * blocks (0: the file holds every request as a row).
 */
export async function completeLedger(
  host: EngineHost,
  ctx: CliContext,
  o: { quiet?: boolean } = {},
): Promise<number> {
  const pending = host.local.ledgerPending()
  const of = pending.reduce((n, p) => n + p.rows, 0)
  if (of === 0) return 0
  const what = (n: number) =>
    `${count(n)} requests of run${pending.length > 1 ? 's' : ''} ${pending.map((p) => p.runId).join(', ')}`
  const later = (left: number, why: string) =>
    ctx.stderr.write(
      `cannonade: ${what(left)} are not yet samples rows (${why}); Cannonade reads them as they are, and \`${COMPLETE_COMMAND}\` (or the next command, when it can) writes them\n`,
    )
  const held = host.readOnly ? 'the database is read-only here' : host.local.ledgerHeld()
  if (held) {
    later(of, held)
    return of
  }
  const started = performance.now()
  const line = progressLine(ctx, of, o.quiet ?? false)
  line.update(of)
  const ticker = setInterval(() => line.update(total(host)), 200)
  const stop = interruptions(host)
  const why = await Promise.race([host.local.completeLedger().then(() => null), stop.stopped])
  clearInterval(ticker)
  stop.off()
  line.clear()
  const left = total(host)
  if (left === 0) {
    if (!o.quiet)
      ctx.stderr.write(
        `wrote ${what(of)} as samples rows in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
      )
    return 0
  }
  later(left, why ?? host.local.ledgerFailed() ?? 'they could not be written')
  return left
}

/** `cannonade runs complete`: only what every command does before it exits, said when nothing was left. */
export async function runsComplete(host: EngineHost, ctx: CliContext): Promise<number> {
  if (host.local.ledgerPending().length === 0) {
    ctx.stdout.write("every ended run's requests are samples rows\n")
    return 0
  }
  return (await completeLedger(host, ctx)) === 0 ? 0 : 1
}
