// What every command shares: the engine it is a client of, run id arguments, and one mapping from
// what a command throws to its message and exit code (0 ok, 1 failed, 2 bad input).
import { ApiError } from '../api/errors.ts'
import { createEngine, type EngineHost, type EngineOptions } from '../host/index.ts'
import { UsageError } from './args.ts'
import type { CliContext } from './context.ts'

/** What the engine wants the user to know (a read-only database), once, on the command's stderr. */
export function noticeTo(stderr: NodeJS.WritableStream): (message: string) => void {
  return (message) => stderr.write(`cannonade: ${message}\n`)
}

/**
 * Open the engine on `dbPath`, hand it to `fn`, and close it whatever happens. Notices go to the
 * process's stderr unless `opts.onNotice` takes them (every command's stderr is the process's).
 */
export async function withEngine<T>(
  dbPath: string,
  fn: (host: EngineHost) => Promise<T>,
  opts: Omit<EngineOptions, 'dbPath'> = {},
): Promise<T> {
  const host = await createEngine({ onNotice: noticeTo(process.stderr), ...opts, dbPath })
  try {
    return await fn(host)
  } finally {
    await host.close()
  }
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
