// `cannonade run CONFIG [--db FILE] [--json OUT] [--quiet] [--cpu N]`
// `cannonade run URL [-c N] [-d S | -n N] [--rate R] [-m METHOD] [-H 'K: V'] [-b BODY] [--save FILE.yaml]`
// `cannonade run --demo [--duration S] [--connections N]`
// A client of the engine like the app: runs.start, progress and the end through its events, the
// summary through runs.get; a config with `sweep` is the engine's study (./study.ts prints it).
// Exit codes (README.md, "The command line"): 0 success, 1 thresholds failed (or the run did not
// complete), 2 bad input.
import { statSync } from 'node:fs'
import { outputKind, writeOutput } from '../exports/write.ts'
import { dirname, resolve } from 'node:path'
import { ApiError } from '../api/errors.ts'
import type { RunEndedEvent } from '../api/types.ts'
import { ConfigError } from '../config/errors.ts'
import { loadRunConfigFile, parseRunConfig } from '../config/load.ts'
import type { RunConfig } from '../config/schema.ts'
import { createEngine, type EngineHost } from '../host/index.ts'
import { DB_FLAG, helpText, parseFlags, UsageError } from './args.ts'
import { noticeTo, reportError } from './common.ts'
import { completeLedger } from './complete.ts'
import type { CliCommand, CliContext } from './context.ts'
import { ProgressLine } from './progress.ts'
import { formatSummary, jsonSummary } from './summary.ts'
import { runStudy } from './study.ts'
import { isUrl, saveConfig, urlRunConfig } from './run-url.ts'
import { endings, onInterrupt, printJoin, printLogs } from './watch.ts'

const RUN_FLAGS = {
  ...DB_FLAG,
  json: { type: 'string', value: 'OUT', help: 'write the run summary (a study: its results) as JSON to OUT' },
  quiet: { type: 'boolean', help: 'no progress and no summary table; warnings and errors only' },
  cpu: {
    type: 'number',
    value: 'N',
    help: 'pin the load generator to CPU N (Linux taskset); agents to N, N+1, …',
  },
  agents: {
    type: 'number',
    value: 'N',
    help: 'N load agents share the load: one merged run (engine/agents/)',
  },
  on: {
    type: 'string',
    value: 'WHERE',
    help:
      'where the agents run: local (default), docker (N containers), swarm (a replicated job, on a swarm ' +
      'manager), kubernetes (an Indexed Job through KUBECONFIG; CANNONADE_KUBERNETES_NAMESPACE), external ' +
      '(you start them: the command each runs is printed, and the run waits for N to join). docker, swarm, ' +
      'kubernetes and external need CANNONADE_STORE_URL, a PostgreSQL the agents reach; CANNONADE_AGENT_IMAGE, ' +
      'CANNONADE_AGENT_NETWORK (default host): engine/agents/README.md',
  },
  raw: {
    type: 'string',
    value: 'keep|upload',
    help: "with --agents: upload each agent's raw per-request ledger into this run after the load (default), or keep it with the agent (default for external)",
  },
  demo: { type: 'boolean', help: 'run against the embedded demo target instead of a CONFIG' },
  duration: {
    type: 'number',
    value: 'S',
    short: 'd',
    help: 'with a URL or --demo: seconds of load (default 10)',
  },
  connections: {
    type: 'number',
    value: 'N',
    short: 'c',
    help: 'with a URL or --demo: connections (default 10)',
  },
  requests: {
    type: 'number',
    value: 'N',
    short: 'n',
    help: 'with a URL: this many requests instead of a duration',
  },
  rate: {
    type: 'number',
    value: 'R',
    help: 'with a URL: R requests/s, open loop (latency from the intended send time)',
  },
  method: { type: 'string', value: 'METHOD', short: 'm', help: 'with a URL: the method (default GET)' },
  header: {
    type: 'string',
    value: "'K: V'",
    short: 'H',
    multiple: true,
    help: 'with a URL: a header (again for more)',
  },
  body: { type: 'string', value: 'BODY', short: 'b', help: 'with a URL: the request body' },
  save: { type: 'string', value: 'FILE.yaml', help: 'with a URL: write its one-target config to FILE.yaml' },
  'allow-concurrent': {
    type: 'boolean',
    help: 'start even while another run is going on this database (both then report a shared generator)',
  },
} as const

export const RUN_USAGE = helpText(
  `usage: cannonade run CONFIG.(json|yaml) [--db FILE] [--json OUT] [--quiet] [--cpu N] [--allow-concurrent]
       cannonade run URL [-c N] [-d S | -n N] [--rate R] [-m METHOD] [-H 'K: V'] [-b BODY] [--save FILE.yaml]
       cannonade run CONFIG --agents N [--on local|docker|swarm|kubernetes|external] [--raw keep|upload]
       cannonade run --demo [--duration S] [--connections N] [--db FILE] [--json OUT] [--quiet] [--cpu N]`,
  RUN_FLAGS,
)

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

/** The demo's config, with an error naming the flag the user typed, not the field it became. */
function parseDemoConfig(url: string, duration: number, connections: number): RunConfig {
  try {
    return parseRunConfig(demoConfig(url, duration, connections))
  } catch (err) {
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
}

/** A machine already busier than its cores, said before a run, quiet or not: its figures will carry that noise. */
export async function sayMachine(host: EngineHost, ctx: CliContext): Promise<void> {
  const machine = await host.runs.machine()
  if (machine.words) ctx.stderr.write(`warning: ${machine.words}\n`)
}

/**
 * Start a run on the host and follow it to its end: a machine busier than its cores said first,
 * progress on a terminal, its logs, Ctrl-C as a stop. Its stored summary, or null when its end
 * could not be recorded (said on stderr).
 */
export async function watchRun(
  host: EngineHost,
  config: RunConfig,
  ctx: CliContext,
  o: { quiet: boolean; allowConcurrent: boolean },
): Promise<Awaited<ReturnType<EngineHost['runs']['get']>> | null> {
  await sayMachine(host, ctx)
  const progress = !o.quiet && ctx.isTTY ? new ProgressLine(ctx.stderr) : null
  const offProgress = host.runs.onProgress((e) => progress?.update(e))
  const offLogs = printLogs(host, ctx, { quiet: o.quiet })
  const offJoin = config.agents?.on === 'external' ? printJoin(host, ctx) : () => {}
  // A stack the config names is started first when it is not running: its output, as it comes.
  const offStacks = host.stacks.onLog((e) => !o.quiet && ctx.stderr.write(`  ${e.stack}: ${e.line}\n`))
  const ends = endings(host)
  let runId: number
  let end: RunEndedEvent
  let offSignals = () => {}
  try {
    runId = (await host.runs.start(config, { allowConcurrent: o.allowConcurrent })).runId
    const id = runId
    // A stop only fails when the run has just ended: then there is nothing left to stop.
    offSignals = onInterrupt(
      ctx,
      () => void host.runs.stop(id).catch(() => {}),
      () => host.local.kill(id),
    )
    if (!o.quiet) {
      const agents = config.agents ? ` · ${config.agents.count} agents (${config.agents.on})` : ''
      ctx.stderr.write(
        `run "${config.name}": ${config.targets.map((t) => t.name).join(', ')}${agents} · database ${host.dbPath}\n`,
      )
    }
    end = await ends.ended(runId)
  } finally {
    offSignals()
    offProgress()
    offLogs()
    offJoin()
    offStacks()
    ends.off()
    progress?.clear()
  }
  const summary = await host.runs.get(runId)
  if (summary.status === 'running') {
    // Its end could not be written (a disk that went read-only): the event says what happened.
    ctx.stderr.write(`run ${runId} ${end.status}: ${end.error ?? 'its end could not be recorded'}\n`)
    return null
  }
  return summary
}

async function runOne(
  host: EngineHost,
  config: RunConfig,
  ctx: CliContext,
  o: { quiet: boolean; json?: string; allowConcurrent: boolean },
) {
  const summary = await watchRun(host, config, ctx, o)
  if (!summary) return 1
  if (o.json)
    await writeOutput(o.json, [JSON.stringify(jsonSummary(summary), null, 2) + '\n'], {
      dbPath: host.dbPath,
      field: '--json',
    })
  if (!o.quiet) ctx.stdout.write(formatSummary(summary))
  if (summary.status !== 'done') {
    ctx.stderr.write(`run ${summary.runId} ${summary.status}: ${summary.error ?? ''}\n`)
    return 1
  }
  return summary.thresholdsPassed ? 0 : 1
}

/**
 * An output file named by a flag, checked before the run (which could take an hour) rather than
 * after: its folder must exist and it must not be a folder itself.
 */
export function checkOutFile(flag: string, path: string): void {
  if (path === '') throw new UsageError(`${flag}: needs a file path`)
  const dir = dirname(resolve(path))
  const kind = (p: string) => {
    try {
      return statSync(p).isDirectory() ? 'dir' : 'file'
    } catch {
      return null
    }
  }
  if (kind(dir) === null) throw new UsageError(`${flag} ${path}: the folder ${dir} does not exist`)
  if (kind(dir) === 'file') throw new UsageError(`${flag} ${path}: ${dir} is a file, not a folder`)
  if (kind(path) === 'dir') throw new UsageError(`${flag} ${path}: is a folder; give a file path`)
}

/**
 * `--agents N [--on WHERE] [--raw keep|upload]` over the config's own `agents` block; the result
 * is validated like the file (a load that cannot be split names agents.count).
 */
function withAgents(config: RunConfig, flags: { agents?: number; on?: string; raw?: string }): RunConfig {
  const { agents, on, raw } = flags
  if (agents === undefined && on === undefined && raw === undefined) return config
  if (agents !== undefined && (!Number.isInteger(agents) || agents < 1))
    throw new UsageError('--agents must be a whole number from 1')
  if (agents === undefined && !config.agents) throw new UsageError('--on and --raw go with --agents N')
  if (raw !== undefined && raw !== 'keep' && raw !== 'upload') throw new UsageError('--raw is keep or upload')
  return parseRunConfig({
    ...config,
    agents: {
      ...config.agents,
      ...(agents !== undefined ? { count: agents } : {}),
      ...(on !== undefined ? { on } : {}),
      ...(raw !== undefined ? { raw } : {}),
    },
  })
}

/** Options that make a URL's config: refused with a config file or --demo, naming them. */
function urlOnly(flags: Record<string, unknown>): void {
  const given = ['requests', 'rate', 'method', 'header', 'body', 'save'].filter((f) => flags[f] !== undefined)
  if (given.length)
    throw new UsageError(
      `${given.map((f) => `--${f}`).join(', ')}: with a URL only (cannonade run http://…); a config file says these itself`,
    )
}

function invalidConfig(ctx: CliContext, issues: readonly { field: string; message: string }[]): number {
  ctx.stderr.write(
    `cannonade run: invalid config\n${issues.map((i) => `  ${i.field || '(config)'}: ${i.message}`).join('\n')}\n`,
  )
  return 2
}

export async function runCommand(argv: string[], ctx: CliContext): Promise<number> {
  let host: EngineHost | null = null
  let quiet = false
  try {
    const { flags, positional } = parseFlags(argv, RUN_FLAGS)
    quiet = flags.quiet ?? false
    const { cpu, duration, connections } = flags
    if (cpu !== undefined && (!Number.isInteger(cpu) || cpu < 0))
      throw new UsageError('--cpu must be a CPU number (0, 1, …)')
    if (flags.agents !== undefined && (!Number.isInteger(flags.agents) || flags.agents < 1))
      throw new UsageError('--agents must be a whole number from 1')
    // A config file is read and checked before the engine opens: bad input writes nothing.
    let config: RunConfig | null = null
    let saved: Record<string, unknown> | null = null
    const url = positional.length === 1 && isUrl(positional[0]!) ? positional[0]! : null
    if (!url) urlOnly(flags)
    if (flags.demo) {
      if (positional.length) throw new UsageError('--demo takes no config file')
    } else if (url) {
      const made = urlRunConfig({ url, ...flags, headers: flags.header })
      config = withAgents(made.config, flags)
      if (flags.save !== undefined) saved = made.raw
    } else {
      if (duration !== undefined || connections !== undefined) {
        throw new UsageError(
          '--duration and --connections go with a URL or --demo; set load.duration / load.connections in the config',
        )
      }
      if (positional.length !== 1)
        throw new UsageError(positional.length ? 'give one config file or URL' : 'missing CONFIG file or URL')
      config = withAgents(loadRunConfigFile(positional[0]!), flags)
    }
    if (saved && flags.save !== undefined) await saveConfig(flags.save, saved, flags.db ?? ctx.dbPath)
    if (flags.json !== undefined) {
      checkOutFile('--json', flags.json)
      // The database and the data folder's own files are refused before the run, not after it.
      outputKind(flags.json, { dbPath: flags.db ?? ctx.dbPath, field: '--json' })
    }
    const storeUrl = process.env.CANNONADE_STORE_URL
    host = await createEngine({
      dbPath: flags.db ?? ctx.dbPath,
      onNotice: noticeTo(ctx.stderr),
      ...(cpu !== undefined ? { cpu } : {}),
      ...(storeUrl ? { agentStoreUrl: storeUrl } : {}),
    })
    config ??= withAgents(parseDemoConfig(await host.demoUrl(), duration ?? 10, connections ?? 10), flags)
    const o = {
      quiet: flags.quiet ?? false,
      allowConcurrent: flags['allow-concurrent'] ?? false,
      ...(flags.json !== undefined ? { json: flags.json } : {}),
    }
    if (config.sweep) {
      await sayMachine(host, ctx)
      return await runStudy(host, config, ctx, o)
    }
    return await runOne(host, config, ctx, o)
  } catch (err) {
    if (err instanceof ConfigError) return invalidConfig(ctx, err.issues)
    // The engine's preflight (a target that does not answer…) is bad input in the config too;
    // its message has one `field: problem` line per issue.
    if (err instanceof ApiError && err.code === 'bad-input') {
      ctx.stderr.write(`cannonade run: invalid config\n${err.message.replace(/^/gm, '  ')}\n`)
      return 2
    }
    return reportError(err, ctx, RUN_USAGE, 'cannonade run')
  } finally {
    // The file is the record: the run's requests are samples rows before the command returns (a
    // progress line meanwhile; Ctrl-C leaves the rest readable and says what completes them).
    if (host) await completeLedger(host, ctx, { quiet }).catch(() => {})
    await host?.close()
  }
}

export const runCli: CliCommand = { help: RUN_USAGE, run: runCommand }
