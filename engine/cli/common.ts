// What every command shares: the engine it is a client of, run id arguments, and one mapping from
// what a command throws to its message and exit code (0 ok, 1 failed, 2 bad input).
import { ApiError } from '../api/errors.ts'
import { createEngine, type EngineHost, type EngineOptions } from '../host/index.ts'
import { UsageError } from './args.ts'
import { completeLedger } from './complete.ts'
import type { CliContext } from './context.ts'
import { printable } from './text.ts'

/**
 * What the engine wants the user to know (a read-only database), once, on the command's stderr: one
 * line, its control characters escaped (a notice can carry what a user typed, e.g. a path).
 */
export function noticeTo(stderr: NodeJS.WritableStream): (message: string) => void {
  return (message) => stderr.write(`cannonade: ${printable(message)}\n`)
}

/**
 * Open the engine on `dbPath`, hand it to `fn`, write the requests of ended runs still in ledger
 * blocks as `samples` rows (complete.ts: the file is the record; what it could not write it says),
 * and close it whatever happens. Notices go to the process's stderr unless `opts.onNotice` takes
 * them; the rows' progress and messages to `opts.ctx` (default: the process's streams).
 */
export async function withEngine<T>(
  dbPath: string,
  fn: (host: EngineHost) => Promise<T>,
  opts: Omit<EngineOptions, 'dbPath'> & { ctx?: CliContext } = {},
): Promise<T> {
  const { ctx, ...engine } = opts
  const host = await createEngine({ onNotice: noticeTo(process.stderr), ...engine, dbPath })
  try {
    return await fn(host)
  } finally {
    // Whatever the command did (or failed to do), the file is left with every request as a row.
    await completeLedger(host, ctx ?? processCli(dbPath)).catch(() => {})
    await host.close()
  }
}

/** The process's own streams, for a caller without a command context. */
function processCli(dbPath: string): CliContext {
  return { dbPath, stdout: process.stdout, stderr: process.stderr, isTTY: Boolean(process.stderr.isTTY) }
}

/** A run id argument: a positive whole number, or a usage error naming the argument. */
export function parseRunId(text: string | undefined, what = 'ID'): number {
  if (text === undefined) throw new UsageError(`missing ${what} (a run id; see "cannonade runs list")`)
  const clean = text.replace(/^#/, '')
  if (!/^\d{1,15}$/.test(clean) || Number(clean) < 1)
    throw new UsageError(`${what} "${text}" is not a run id (a positive whole number)`)
  return Number(clean)
}

/** Exit code and message for anything a command throws; bad input is 2, the rest 1. */
export function reportError(err: unknown, ctx: CliContext, usage: string, command = 'cannonade'): number {
  if (err instanceof UsageError) {
    ctx.stderr.write(`${command}: ${err.message}\n${usage}\n`)
    return 2
  }
  if (err instanceof ApiError) {
    ctx.stderr.write(`${command}: ${err.message}\n`)
    return err.code === 'bad-input' || err.code === 'not-found' || err.code === 'conflict' ? 2 : 1
  }
  ctx.stderr.write(`${command}: ${err instanceof Error ? err.message : String(err)}\n`)
  return 1
}
