// `cannonade serve [--port P] [--db FILE]`: the engine plus the web UI on 127.0.0.1, until Ctrl-C.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'
import type { CliContext } from '../cli/context.ts'
import { createEngine } from '../host.ts'
import { startServer } from './http.ts'

export type ServeContext = CliContext

interface ServeOptions {
  port: number
  dbPath: string
  staticDir: string
}

const USAGE = `usage: cannonade serve [--port P] [--db FILE]
  Serves the web UI and the engine API on 127.0.0.1. Open the printed URL: it carries the
  per-launch token every request needs.
`

/** The vite build output, next to the package root (overridable for packaged layouts). */
export function defaultStaticDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CANNONADE_STATIC_DIR ?? fileURLToPath(new URL('../../dist/renderer/', import.meta.url))
}

/** Parse serve's arguments; returns an error message naming the flag, or the options. */
export function parseServeArgs(
  argv: readonly string[],
  ctx: Pick<ServeContext, 'dbPath'>,
): ServeOptions | string {
  const opts: ServeOptions = { port: 0, dbPath: ctx.dbPath, staticDir: defaultStaticDir() }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined]
    const value = () => inline ?? argv[++i]
    switch (flag) {
      case '--port': {
        const v = value()
        const port = Number(v)
        if (v === undefined || !Number.isInteger(port) || port < 0 || port > 65535)
          return `--port: must be a whole number 0-65535, got ${JSON.stringify(v ?? '')}`
        opts.port = port
        break
      }
      case '--db': {
        const v = value()
        if (!v) return '--db: needs a file path'
        opts.dbPath = v
        break
      }
      case '--help':
      case '-h':
        return 'help'
      default:
        return `unknown argument: ${arg}`
    }
  }
  return opts
}

/** Runs until SIGINT/SIGTERM; resolves with the exit code (0 clean, 2 bad input, 1 failure). */
export async function serveCommand(argv: readonly string[], ctx: ServeContext): Promise<number> {
  const parsed = parseServeArgs(argv, ctx)
  if (parsed === 'help') {
    ctx.stdout.write(USAGE)
    return 0
  }
  if (typeof parsed === 'string') {
    ctx.stderr.write(`cannonade serve: ${parsed}\n${USAGE}`)
    return 2
  }
  if (!existsSync(join(parsed.staticDir, 'index.html'))) {
    ctx.stderr.write(
      `cannonade serve: the web UI is not built (${parsed.staticDir}); run \`npx vite build\`. The API works meanwhile.\n`,
    )
  }

  // The demo target starts with the engine so the UI can offer "Run the demo" at once.
  const engine = await createEngine({ dbPath: parsed.dbPath, demo: true })
  let server: Awaited<ReturnType<typeof startServer>>
  try {
    server = await startServer({
      host: engine,
      port: parsed.port,
      staticDir: parsed.staticDir,
      dataDir: dirname(engine.dbPath),
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
