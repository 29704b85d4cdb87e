// `cannonade stacks list | up NAME [--native] [--port P] [--replicas N] | down NAME [--volumes] |
// status [--json]`, through the engine's Api (a port of the user's choosing is one of its local
// capabilities).
import { MAX_REPLICAS } from '../config/limits.ts'
import { helpText, parseFlags, UsageError } from './args.ts'
import { reportError, withEngine } from './common.ts'
import type { CliCommand, CliContext } from './context.ts'

const STACKS_FLAGS = {
  native: { type: 'boolean', help: 'up: run the server as a local process instead of in Docker' },
  port: { type: 'number', value: 'P', help: "up: serve on this port instead of the stack's own" },
  replicas: {
    type: 'number',
    value: 'N',
    help: `up: run N instances of the app behind a load balancer (Docker; 1-${MAX_REPLICAS})`,
  },
  volumes: { type: 'boolean', help: "down: also delete the stack's database (kept by default)" },
  json: { type: 'boolean', help: 'status: print JSON' },
} as const

export const STACKS_USAGE = helpText(
  'usage: cannonade stacks list | up NAME [--native] [--port P] [--replicas N] | down NAME [--volumes] | status [--json]',
  STACKS_FLAGS,
)

export async function stacksCommand(argv: string[], ctx: CliContext): Promise<number> {
  const [sub, ...rest] = argv
  try {
    const { flags, positional } = parseFlags(rest, STACKS_FLAGS)
    const { port, replicas } = flags
    if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535))
      throw new UsageError('--port must be 1-65535')
    if (replicas !== undefined && (!Number.isInteger(replicas) || replicas < 1 || replicas > MAX_REPLICAS))
      throw new UsageError(`--replicas must be 1-${MAX_REPLICAS}`)
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
                // What the containers really run with (docker inspect), not the manifest's defaults.
                const limits = `${s.limits.cpus ?? 'no'} CPU, ${s.limits.memory ?? 'no'} memory`
                const state = s.replicas > 1 ? `${s.state} ×${s.replicas}` : s.state
                ctx.stdout.write(
                  `${s.name.padEnd(14)} ${state.padEnd(10)} ${s.url.padEnd(24)} ${limits}  ${s.containers.map((c) => `${c.name}:${c.health ?? c.state}`).join(' ')}\n`,
                )
              }
            return 0
          }
          case 'up': {
            const started = Date.now()
            const native = flags.native ?? false
            const st = await host.local.stackUp(positional[0]!, {
              native,
              ...(port ? { port } : {}),
              ...(replicas ? { replicas } : {}),
            })
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
          case 'down': {
            const volumes = flags.volumes ?? false
            await host.stacks.down(positional[0]!, { volumes })
            ctx.stdout.write(
              `${positional[0]} is down${volumes ? ', its database deleted' : ' (its database is kept; --volumes deletes it)'}\n`,
            )
            return 0
          }
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
