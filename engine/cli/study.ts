// `cannonade run` of a config with `sweep`: the engine runs the study (one run per value, or per
// pair of values of a grid; a stack restarted for a value of its settings, and put back at the end);
// this prints its steps, each run's summary, then the study's table and knee from studies.get.
import { writeOutput } from '../exports/write.ts'
import type { RunSummary, StudyResults } from '../api/types.ts'
import type { RunConfig } from '../config/schema.ts'
import { axisName, warmupText, type SweepValue } from '../config/sweep.ts'
import type { EngineHost } from '../host/index.ts'
import type { StudyEvent } from '../host/local-capabilities.ts'
import type { CliContext } from './context.ts'
import { ProgressLine } from './progress.ts'
import { msText } from '../metrics/units.ts'
import { formatSummary, jsonSummary } from './summary.ts'
import { onInterrupt, printLogs } from './watch.ts'

/** A study step as a line on the terminal, or null for the ones that say nothing. */
function stepLine(e: StudyEvent, axes: readonly { name: string }[]): string | null {
  switch (e.type) {
    case 'restart':
      return `restarting ${e.stack} with ${JSON.stringify(e.env)}${e.replicas > 1 ? `, ${e.replicas} replicas` : ''}; ${warmupText(e.warmupSeconds)} before measuring`
    case 'restore':
      return e.running
        ? `restoring ${e.stack} to the settings the study found: ${JSON.stringify(e.env)}${e.replicas > 1 ? `, ${e.replicas} replicas` : ''}`
        : `stopping ${e.stack}: it was not running before the study`
    case 'restore-failed':
      return `could not restore ${e.stack}: ${e.error}`
    case 'run':
      return `${e.labels.map((l, i) => `${axes[i]?.name ?? '?'} = ${l}`).join(', ')}: run ${e.runId}`
    default:
      return null
  }
}

/** The study's table: a block per target (and grid line), a row per value of the first setting. */
export function studyTable(results: StudyResults): string {
  const axis = results.axes[0]!
  const by = results.axes[1]
  const width = Math.max(7, ...axis.labels.map((l) => l.length))
  let out = `\nstudy ${results.studyId}: ${axis.path} over ${axis.labels.join(', ')}${by ? ` × ${by.path} over ${by.labels.join(', ')}` : ''}\n`
  for (const t of results.targets) {
    out += `${t.target}${t.by && by ? `, ${by.name} = ${t.by.label}` : ''}\n`
    out += `  ${axis.name.padEnd(width)}    req/s   p50 ms   p95 ms   p99 ms  errors\n`
    for (const p of t.points) {
      out += `  ${p.label.padEnd(width)} ${p.throughput.toFixed(1).padStart(8)} ${msText(p.p50).padStart(8)} ${msText(p.p95).padStart(8)} ${msText(p.p99).padStart(8)} ${(p.errorRate * 100).toFixed(2).padStart(6)} %\n`
    }
    out += `  ${t.sentence}\n`
    // With a latency target: the capacity under it, beside the knee.
    if (t.capacity) out += `  capacity at the latency target: ${t.capacity.sentence}\n`
  }
  if (results.capacityRule) out += `${results.capacityRule}\n`
  return out
}

export async function runStudy(
  host: EngineHost,
  config: RunConfig,
  ctx: CliContext,
  o: { quiet: boolean; json?: string; allowConcurrent?: boolean },
): Promise<number> {
  const sweep = config.sweep!
  const axes = [sweep.path, ...(sweep.by ? [sweep.by.path] : [])].map((p) => ({ name: axisName(p) }))
  const total = sweep.values.length * (sweep.by?.values.length ?? 1)
  const progress = !o.quiet && ctx.isTTY ? new ProgressLine(ctx.stderr) : null
  const started: { runId: number; point: SweepValue[] }[] = []
  let stopping = false
  const current = () => started.at(-1)?.runId
  // The study's end; an error that cut it short reaches the terminal as a log line (printLogs).
  let ended: () => void = () => {}
  const over = new Promise<void>((resolve) => (ended = resolve))
  const offs = [
    host.runs.onProgress((e) => progress?.update(e)),
    printLogs(host, ctx),
    host.stacks.onLog((e) => !o.quiet && ctx.stderr.write(`  ${e.stack}: ${e.line}\n`)),
    host.local.onStudy((e) => {
      if (e.type === 'run') {
        started.push({ runId: e.runId, point: e.point })
        // Ctrl-C between two runs (a cooldown, a stack restart) stops the next one at once.
        if (stopping) void host.runs.stop(e.runId).catch(() => {})
      }
      if (e.type === 'study-ended') return ended()
      const line = stepLine(e, axes)
      progress?.clear()
      // What the study does to a stack is said even with --quiet: it changes the machine.
      if (line && (!o.quiet || e.type !== 'run')) ctx.stderr.write(`${line}\n`)
    }),
  ]
  let studyId: number
  try {
    studyId = (await host.runs.start(config, { allowConcurrent: o.allowConcurrent ?? false })).studyId!
    // The sweep goes on only after a run that ended `done`: stopping the current one ends it, and
    // the engine then puts the stacks it restarted back before the study ends.
    offs.push(
      onInterrupt(
        ctx,
        () => {
          stopping = true
          const runId = current()
          if (runId !== undefined) void host.runs.stop(runId).catch(() => {})
        },
        () => {
          const runId = current()
          if (runId !== undefined) host.local.kill(runId)
        },
      ),
    )
    await over
  } finally {
    for (const off of offs) off()
    progress?.clear()
  }
  const runs: (RunSummary & { point: SweepValue[] })[] = []
  for (const { runId, point } of started) runs.push({ ...(await host.runs.get(runId)), point })
  const results = await host.studies.get(studyId)
  if (!o.quiet) {
    for (const r of runs) ctx.stdout.write(formatSummary(r))
    ctx.stdout.write(studyTable(results))
  }
  if (o.json)
    await writeOutput(
      o.json,
      [
        JSON.stringify(
          { studyId, sweep, results, runs: runs.map((r) => ({ point: r.point, ...jsonSummary(r) })) },
          null,
          2,
        ) + '\n',
      ],
      { dbPath: host.dbPath, field: '--json' },
    )
  const complete = runs.length === total && runs.every((r) => r.status === 'done')
  return complete && runs.every((r) => r.thresholdsPassed) ? 0 : 1
}
