// `cannonade stacks list | up NAME [--native] [--port P] | down NAME | status [--json]`
import { ApiError } from '../api/errors.ts'
import { dataDir } from '../paths.ts'
import { Stacks } from '../stacks/stacks.ts'
import { parseFlags, UsageError } from './args.ts'
import type { CliContext } from './context.ts'
import { dirname, join } from 'node:path'

const USAGE = 'usage: cannonade stacks list | up NAME [--native] [--port P] | down NAME | status [--json]'

export async function stacksCommand(argv: string[], ctx: CliContext): Promise<number> {
  const [sub, ...rest] = argv
  const stacks = new Stacks({
    stateDir: join(ctx.dbPath ? dirname(ctx.dbPath) : dataDir(), 'native-stacks'),
    onLog: (_s, line) => ctx.stderr.write(`  ${line}\n`),
  })
  try {
    const { flags, positional } = parseFlags(rest, { native: 'boolean', port: 'number', json: 'boolean' })
    switch (sub) {
      case 'list':
        for (const s of stacks.list())
          ctx.stdout.write(`${s.name.padEnd(14)} ${s.url.padEnd(24)} ${s.description}\n`)
        return 0
      case 'status': {
        const all = await stacks.status()
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
        if (positional.length !== 1) throw new UsageError('give one stack NAME')
        const port = flags.port as number | undefined
        if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535))
          throw new UsageError('--port must be 1-65535')
        const started = Date.now()
        const st = await stacks.up(positional[0]!, {
          native: Boolean(flags.native),
          ...(port ? { port } : {}),
        })
        ctx.stdout.write(`${st.name} is up at ${st.url} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`)
        if (flags.native) {
          // Native servers are this process' children: stay in the foreground until Ctrl-C.
          ctx.stderr.write('native stack running; press Ctrl-C to stop it\n')
          await new Promise<void>((resolve) => {
            process.once('SIGINT', resolve)
            process.once('SIGTERM', resolve)
          })
          await stacks.down(st.name)
        }
        return 0
      }
      case 'down':
        if (positional.length !== 1) throw new UsageError('give one stack NAME')
        await stacks.down(positional[0]!)
        ctx.stdout.write(`${positional[0]} is down\n`)
        return 0
      default:
        throw new UsageError(sub ? `unknown subcommand "${sub}"` : 'missing subcommand')
    }
  } catch (err) {
    if (err instanceof UsageError) {
      ctx.stderr.write(`cannonade stacks: ${err.message}\n${USAGE}\n`)
      return 2
    }
    if (err instanceof ApiError) {
      ctx.stderr.write(`cannonade stacks: ${err.message}\n`)
      return err.code === 'not-found' || err.code === 'conflict' ? 2 : 1
    }
    throw err
  }
}
