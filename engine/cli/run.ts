// `cannonade run CONFIG [--db FILE] [--json OUT] [--quiet] [--cpu N]`
// `cannonade run --demo [--duration S] [--connections N]`
// Exit codes (DESIGN.md): 0 success, 1 thresholds failed (or the run did not complete), 2 bad input.
import { writeFileSync } from 'node:fs'
import { ConfigError } from '../config/errors.ts'
import { loadRunConfigFile, parseRunConfig } from '../config/load.ts'
import { preflight } from '../config/preflight.ts'
import type { RunConfig } from '../config/schema.ts'
import { startDemoServer, type DemoServer } from '../demo/server.ts'
import { startRun } from '../runner/supervisor.ts'
import { openDb } from '../store/db.ts'
import { parseFlags, UsageError } from './args.ts'
import type { CliContext } from './context.ts'
import { ProgressLine } from './progress.ts'
import { formatSummary, jsonSummary } from './summary.ts'
import { runStudyCommand } from './study.ts'

export const RUN_USAGE = `usage: cannonade run CONFIG.(json|yaml) [--db FILE] [--json OUT] [--quiet] [--cpu N]
       cannonade run --demo [--duration S] [--connections N] [--db FILE] [--json OUT] [--quiet]`

function demoConfig(url: string, duration: number, connections: number): unknown {
  return {
    version: 1,
    name: 'demo: list ads',
    targets: [{ name: 'demo', url: `${url}/ads?limit=20` }],
    load: { connections, duration },
    cooldownSeconds: 0,
    thresholds: [{ metric: 'errorRate', max: 0.01 }],
  }
}

export async function runCommand(argv: string[], ctx: CliContext): Promise<number> {
  let demo: DemoServer | null = null
  try {
    const { flags, positional } = parseFlags(argv, {
      db: 'string',
      json: 'string',
      quiet: 'boolean',
      demo: 'boolean',
      duration: 'number',
      connections: 'number',
      cpu: 'number',
    })
    const dbPath = (flags.db as string | undefined) ?? ctx.dbPath
    let config: RunConfig
    if (flags.demo) {
      if (positional.length) throw new UsageError('--demo takes no config file')
      const duration = (flags.duration as number | undefined) ?? 10
      const connections = (flags.connections as number | undefined) ?? 10
      demo = await startDemoServer()
      try {
        config = parseRunConfig(demoConfig(demo.url, duration, connections))
      } catch (err) {
        // Name the flag the user typed, not the config field it became.
        if (err instanceof ConfigError) {
          const flag = err.field.includes('duration')
            ? '--duration'
            : err.field.includes('connections')
              ? '--connections'
              : err.field
          throw new UsageError(`${flag}: ${err.issues[0]?.message ?? err.message}`)
        }
        throw err
      }
    } else {
      if (flags.duration !== undefined || flags.connections !== undefined) {
        throw new UsageError(
          '--duration and --connections go with --demo; set load.duration / load.connections in the config',
        )
      }
      if (positional.length !== 1)
        throw new UsageError(positional.length ? 'give one config file' : 'missing CONFIG file')
      config = loadRunConfigFile(positional[0]!)
      await preflight(config)
    }
    const cpu = flags.cpu as number | undefined
    if (cpu !== undefined && (!Number.isInteger(cpu) || cpu < 0))
      throw new UsageError('--cpu must be a CPU number (0, 1, …)')

    const db = openDb(dbPath)
    const quiet = Boolean(flags.quiet)
    if (config.sweep) {
      const code = await runStudyCommand(db, dbPath, config, {
        ctx,
        quiet,
        json: flags.json as string | undefined,
        cpu,
      })
      db.close()
      return code
    }
    const progress = !quiet && ctx.isTTY ? new ProgressLine(ctx.stderr) : null
    if (!quiet)
      ctx.stderr.write(
        `run "${config.name}": ${config.targets.map((t) => t.name).join(', ')} · database ${dbPath}\n`,
      )
    const handle = await startRun(
      db,
      dbPath,
      config,
      {
        onProgress: (e) => progress?.update(e),
        onLog: (level, message) => ctx.stderr.write(`${level}: ${message}\n`),
      },
      cpu !== undefined ? { cpu } : {},
    )
    let interrupts = 0
    const onSignal = () => {
      interrupts++
      if (interrupts === 1) {
        ctx.stderr.write(
          '\nstopping: finishing the current second and keeping every sample (Ctrl-C again to kill)\n',
        )
        handle.stop()
      } else handle.kill('SIGKILL')
    }
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
    const summary = await handle.done.finally(() => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      progress?.clear()
    })
    db.close()
    if (flags.json) writeFileSync(flags.json as string, JSON.stringify(jsonSummary(summary), null, 2) + '\n')
    if (!quiet) ctx.stdout.write(formatSummary(summary))
    if (summary.status !== 'done') {
      ctx.stderr.write(`run ${summary.runId} ${summary.status}: ${summary.error ?? ''}\n`)
      return 1
    }
    return summary.thresholdsPassed ? 0 : 1
  } catch (err) {
    if (err instanceof UsageError) {
      ctx.stderr.write(`cannonade run: ${err.message}\n${RUN_USAGE}\n`)
      return 2
    }
    if (err instanceof ConfigError) {
      ctx.stderr.write(
        `cannonade run: invalid config\n${err.issues.map((i) => `  ${i.field || '(config)'}: ${i.message}`).join('\n')}\n`,
      )
      return 2
    }
    throw err
  } finally {
    await demo?.close()
  }
}
