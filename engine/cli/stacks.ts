// `cannonade stacks list | up NAME [--native] [--port P] | down NAME | status [--json]`, through
// the engine's Api (a port of the user's choosing is one of its local capabilities).
import { helpText, parseFlags, UsageError } from './args.ts'
import { reportError, withEngine } from './common.ts'
import type { CliCommand, CliContext } from './context.ts'

const STACKS_FLAGS = {
  native: { type: 'boolean', help: 'up: run the server as a local process instead of in Docker' },
  port: { type: 'number', value: 'P', help: "up: serve on this port instead of the stack's own" },
  json: { type: 'boolean', help: 'status: print JSON' },
} as const

export const STACKS_USAGE = helpText(
  'usage: cannonade stacks list | up NAME [--native] [--port P] | down NAME | status [--json]',
  STACKS_FLAGS,
)

export async function stacksCommand(argv: string[], ctx: CliContext): Promise<number> {
  const [sub, ...rest] = argv
  try {
    const { flags, positional } = parseFlags(rest, STACKS_FLAGS)
    const { port } = flags
    if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535))
      throw new UsageError('--port must be 1-65535')
    if ((sub === 'up' || sub === 'down') && positional.length !== 1)
      throw new UsageError('give one stack NAME')
    if (sub !== 'list' && sub !== 'status' && sub !== 'up' && sub !== 'down')
      throw new UsageError(sub ? `unknown subcommand "${sub}"` : 'missing subcommand')
    return await withEngine(ctx.dbPath, async (host) => {
      const off = host.stacks.onLog((e) => ctx.stderr.write(`  ${e.line}\n`))
      try {
        switch (sub) {
          case 'list':
            for (const s of await host.stacks.list())
              ctx.stdout.write(`${s.name.padEnd(14)} ${s.url.padEnd(24)} ${s.description}\n`)
            return 0
          case 'status': {
            const all = await host.stacks.status()
            if (flags.json) ctx.stdout.write(JSON.stringify(all, null, 2) + '\n')
            else
              for (const s of all) {
                const limits = `${s.limits.cpus ?? '-'} CPU, ${s.limits.memory ?? '-'}`
                ctx.stdout.write(
                  `${s.name.padEnd(14)} ${s.state.padEnd(10)} ${s.url.padEnd(24)} ${limits}  ${s.containers.map((c) => `${c.name}:${c.health ?? c.state}`).join(' ')}\n`,
                )
              }
            return 0
          }
          case 'up': {
            const started = Date.now()
            const native = flags.native ?? false
            const st = await host.local.stackUp(positional[0]!, { native, ...(port ? { port } : {}) })
            ctx.stdout.write(
              `${st.name} is up at ${st.url} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
            )
            if (native) {
              // Native servers are this process' children: stay in the foreground until Ctrl-C.
              ctx.stderr.write('native stack running; press Ctrl-C to stop it\n')
              await new Promise<void>((resolve) => {
                process.once('SIGINT', resolve)
                process.once('SIGTERM', resolve)
              })
              await host.stacks.down(st.name)
            }
            return 0
          }
          case 'down':
            await host.stacks.down(positional[0]!)
            ctx.stdout.write(`${positional[0]} is down\n`)
            return 0
        }
      } finally {
        off()
      }
    })
  } catch (err) {
    return reportError(err, ctx, STACKS_USAGE, 'cannonade stacks')
  }
}

export const stacksCli: CliCommand = { help: STACKS_USAGE, run: stacksCommand }
