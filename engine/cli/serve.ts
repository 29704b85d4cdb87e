// `cannonade serve [--port P] [--db FILE]`: the engine plus the web UI on 127.0.0.1, until Ctrl-C.
// Its flags are parsed like every command's (../cli/args.ts).
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'
import { DB_FLAG, helpText, parseFlags, UsageError } from './args.ts'
import { noticeTo, reportError } from './common.ts'
import type { CliCommand, CliContext } from './context.ts'
import { createEngine } from '../host/index.ts'
import { startServer } from '../server/http.ts'

export type ServeContext = CliContext

interface ServeOptions {
  port: number
  dbPath: string
  staticDir: string
}

const SERVE_FLAGS = {
  port: { type: 'number', value: 'P', help: 'listen on this port (default: a free one)' },
  ...DB_FLAG,
} as const

export const SERVE_USAGE = helpText(
  `usage: cannonade serve [--port P] [--db FILE]
  Serves the web UI and the engine API on 127.0.0.1. Open the printed URL: it carries the
  per-launch token every request needs.`,
  SERVE_FLAGS,
)

/** The vite build output, next to the package root (overridable for packaged layouts). */
export function defaultStaticDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CANNONADE_STATIC_DIR ?? fileURLToPath(new URL('../../dist/renderer/', import.meta.url))
}

/** Parse serve's arguments; throws a UsageError naming the flag. */
export function parseServeArgs(argv: readonly string[], ctx: Pick<ServeContext, 'dbPath'>): ServeOptions {
  const { flags, positional } = parseFlags(argv, SERVE_FLAGS)
  if (positional.length) throw new UsageError(`serve takes no argument "${positional[0]}"`)
  const { port = 0, db } = flags
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port: must be a whole number 0-65535, got ${port}`)
  if (db === '') throw new UsageError('--db: needs a file path')
  return { port, dbPath: db ?? ctx.dbPath, staticDir: defaultStaticDir() }
}

/** Runs until SIGINT/SIGTERM; resolves with the exit code (0 clean, 2 bad input, 1 failure). */
export async function serveCommand(argv: readonly string[], ctx: ServeContext): Promise<number> {
  let parsed: ServeOptions
  try {
    parsed = parseServeArgs(argv, ctx)
  } catch (err) {
    return reportError(err, ctx, SERVE_USAGE, 'cannonade serve')
  }
  if (!existsSync(join(parsed.staticDir, 'index.html'))) {
    ctx.stderr.write(
      `cannonade serve: the web UI is not built (${parsed.staticDir}); run \`npx vite build\`. The API works meanwhile.\n`,
    )
  }

  // The demo target starts with the engine so the UI can offer "Run the demo" at once.
  let engine: Awaited<ReturnType<typeof createEngine>>
  try {
    engine = await createEngine({ dbPath: parsed.dbPath, demo: true, onNotice: noticeTo(ctx.stderr) })
  } catch (err) {
    return reportError(err, ctx, SERVE_USAGE, 'cannonade serve')
  }
  let server: Awaited<ReturnType<typeof startServer>>
  try {
    server = await startServer({
      host: engine,
      port: parsed.port,
      staticDir: parsed.staticDir,
      dataDir: dirname(engine.dbPath),
      log: (line) => ctx.stderr.write(`cannonade serve: ${line}\n`),
    })
  } catch (err) {
    await engine.close()
    const code = (err as NodeJS.ErrnoException).code
    ctx.stderr.write(
      code === 'EADDRINUSE'
        ? `cannonade serve: --port ${parsed.port} is in use; pick another or omit --port\n`
        : `cannonade serve: ${err instanceof Error ? err.message : String(err)}\n`,
    )
    return code === 'EADDRINUSE' ? 2 : 1
  }

  ctx.stdout.write(`Cannonade web UI: ${server.url}\n`)
  ctx.stdout.write(`database: ${parsed.dbPath}\n`)
  if (ctx.isTTY) ctx.stdout.write('Press Ctrl-C to stop.\n')

  return new Promise<number>((resolve) => {
    let stopping = false
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return
      stopping = true
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      ctx.stderr.write(`\n${signal}: stopping (active runs are aborted and kept)…\n`)
      // The server first (no new calls), then the engine (ends runs, closes the database).
      server
        .close()
        .then(() => engine.close())
        .then(
          () => resolve(0),
          (err: unknown) => {
            ctx.stderr.write(
              `cannonade serve: shutdown failed: ${err instanceof Error ? err.message : String(err)}\n`,
            )
            resolve(1)
          },
        )
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}

export const serveCli: CliCommand = { help: SERVE_USAGE, run: serveCommand }
