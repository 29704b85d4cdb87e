// `cannonade calibrate URL`: an A/A run (the same URL under two names, in a random order each
// round) that reports this machine's round-to-round spread and the smallest difference a comparison
// here resolves in a given time (engine/metrics/calibrate.ts). A client of the engine like `run`:
// the run is stored, `runs show` and `compare` read it again. Exit codes as `run`: 0, 1 (the run
// did not complete), 2 (bad input).
import { ConfigError } from '../config/errors.ts'
import { parseRunConfig } from '../config/load.ts'
import type { RunConfig } from '../config/schema.ts'
import { createEngine, type EngineHost } from '../host/index.ts'
import { calibrate, calibrationLines } from '../metrics/calibrate.ts'
import { outputKind, writeOutput } from '../exports/write.ts'
import { DB_FLAG, helpText, parseFlags, UsageError } from './args.ts'
import { noticeTo, reportError } from './common.ts'
import { completeLedger } from './complete.ts'
import type { CliCommand, CliContext } from './context.ts'
import { noiseJson, roundsLines } from './rounds.ts'
import { checkOutFile, watchRun } from './run.ts'

/** The two names of the one target: the second is compared against the first. */
export const AA_NAMES: [string, string] = ['A', 'A-again']

const FLAGS = {
  ...DB_FLAG,
  connections: { type: 'number', value: 'N', help: 'connections (default 10)' },
  duration: { type: 'number', value: 'S', help: 'seconds of load per name and round (default 10)' },
  rounds: {
    type: 'number',
    value: 'N',
    help: 'rounds, each name once per round in a random order (default 10)',
  },
  cooldown: { type: 'number', value: 'S', help: 'seconds of cool-down between segments (default 2)' },
  rate: { type: 'number', value: 'R', help: 'an open-loop rate (requests/s) instead of a closed loop' },
  minutes: {
    type: 'number',
    value: 'M',
    help: 'also say what it resolves in M minutes (it always says 10, 30 and 60)',
  },
  json: {
    type: 'string',
    value: 'OUT',
    help: 'write the calibration and every round (its values, its noise) as JSON',
  },
  quiet: { type: 'boolean', help: 'no progress; the calibration and warnings only' },
  cpu: { type: 'number', value: 'N', help: 'pin the load generator to CPU N (Linux taskset)' },
  'allow-concurrent': { type: 'boolean', help: 'start even while another run is going on this database' },
} as const

export const CALIBRATE_USAGE = helpText(
  `usage: cannonade calibrate URL [--connections N] [--duration S] [--rounds N] [--cooldown S] [--rate R]
                           [--minutes M] [--json OUT] [--db FILE] [--quiet] [--cpu N] [--allow-concurrent]
The same URL under two names (A and A-again), each round in a random order: how much identical targets
differ from round to round on this machine, and the smallest difference a comparison resolves here.`,
  FLAGS,
)

type Flags = ReturnType<typeof parseFlags<typeof FLAGS>>['flags']

const FIELD_FLAG: [RegExp, string][] = [
  [/^targets\.\d+\.url/, 'URL'],
  [/^load\.connections/, '--connections'],
  [/^load\.duration/, '--duration'],
  [/^load\.rate/, '--rate'],
  [/^rounds/, '--rounds'],
  [/^cooldownSeconds/, '--cooldown'],
]

/** The A/A config, with an error naming the flag (or URL) a bad value came from. */
export function calibrationConfig(url: string, f: Flags): RunConfig {
  const rounds = f.rounds ?? 10
  if (!Number.isInteger(rounds) || rounds < 3)
    throw new UsageError('--rounds must be a whole number from 3 (an interval needs 3 rounds)')
  try {
    return parseRunConfig({
      version: 1,
      name: `calibrate ${url}`,
      targets: AA_NAMES.map((name) => ({ name, url })),
      load: {
        connections: f.connections ?? 10,
        duration: f.duration ?? 10,
        ...(f.rate !== undefined ? { rate: f.rate } : {}),
      },
      schedule: 'randomized',
      rounds,
      cooldownSeconds: f.cooldown ?? 2,
      tags: ['calibrate'],
    })
  } catch (err) {
    if (err instanceof ConfigError) {
      const issue = err.issues[0]
      const flag = FIELD_FLAG.find(([re]) => re.test(issue?.field ?? ''))?.[1] ?? issue?.field ?? ''
      throw new UsageError(`${flag}: ${issue?.message ?? err.message}`)
    }
    throw err
  }
}

async function calibrateRun(host: EngineHost, config: RunConfig, url: string, f: Flags, ctx: CliContext) {
  const run = await watchRun(host, config, ctx, {
    quiet: f.quiet ?? false,
    allowConcurrent: f['allow-concurrent'] ?? false,
  })
  if (!run) return 1
  const [a, b] = AA_NAMES.map((name) => ({
    target: name,
    rounds: run.results.filter((r) => r.target === name),
  }))
  const seconds =
    run.endedAt && run.rounds.round > 0
      ? (Date.parse(run.endedAt) - Date.parse(run.startedAt)) / 1000 / run.rounds.round
      : 0
  const minutes = [...new Set([10, 30, 60, ...(f.minutes !== undefined ? [f.minutes] : [])])].sort(
    (x, y) => x - y,
  )
  const c = calibrate(a!, b!, seconds, minutes)
  const lines = [
    `calibrate ${url}: run ${run.runId}, ${run.rounds.stop}`,
    ...calibrationLines(c, AA_NAMES),
    ...roundsLines(run, 2).slice(1),
  ]
  ctx.stdout.write(lines.join('\n') + '\n')
  if (f.json) {
    const rounds = run.results.map((r) => ({
      target: r.target,
      round: r.round,
      segment: r.segment ?? null,
      p50: r.latency.p50,
      p99: r.latency.p99,
      throughput: r.throughput,
      noise: noiseJson(r.noise),
    }))
    const doc = { url, runId: run.runId, machine: run.machine, ...c, rounds }
    await writeOutput(f.json, [JSON.stringify(doc, null, 2) + '\n'], { dbPath: host.dbPath, field: '--json' })
  }
  if (run.status !== 'done') {
    ctx.stderr.write(`run ${run.runId} ${run.status}: ${run.error ?? ''}\n`)
    return 1
  }
  return 0
}

export async function calibrateCommand(argv: string[], ctx: CliContext): Promise<number> {
  let host: EngineHost | null = null
  try {
    const { flags, positional } = parseFlags(argv, FLAGS)
    if (positional.length !== 1) throw new UsageError(positional.length ? 'give one URL' : 'URL: missing')
    const url = positional[0]!
    const { cpu } = flags
    if (cpu !== undefined && (!Number.isInteger(cpu) || cpu < 0))
      throw new UsageError('--cpu must be a CPU number (0, 1, …)')
    if (flags.minutes !== undefined && !(flags.minutes > 0)) throw new UsageError('--minutes must be above 0')
    const config = calibrationConfig(url, flags)
    if (flags.json !== undefined) {
      checkOutFile('--json', flags.json)
      outputKind(flags.json, { dbPath: flags.db ?? ctx.dbPath, field: '--json' })
    }
    host = await createEngine({
      dbPath: flags.db ?? ctx.dbPath,
      onNotice: noticeTo(ctx.stderr),
      ...(cpu !== undefined ? { cpu } : {}),
    })
    return await calibrateRun(host, config, url, flags, ctx)
  } catch (err) {
    // The preflight's refusal (a URL that does not answer) is an ApiError 'bad-input': exit 2.
    return reportError(err, ctx, CALIBRATE_USAGE, 'cannonade calibrate')
  } finally {
    if (host) await completeLedger(host, ctx, { quiet: true }).catch(() => {})
    await host?.close()
  }
}

export const calibrateCli: CliCommand = { help: CALIBRATE_USAGE, run: calibrateCommand }
