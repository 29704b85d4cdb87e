// `cannonade run` of a config with `sweep`: the engine runs the study (one run per value, a stack
// restarted for each value of its environment); this prints its steps, each run's summary, then
// the study's table and knee from studies.get.
import { writeFileSync } from 'node:fs'
import type { RunSummary } from '../api/types.ts'
import type { RunConfig } from '../config/schema.ts'
import type { EngineHost } from '../host.ts'
import type { CliContext } from './context.ts'
import { ProgressLine } from './progress.ts'
import { formatSummary, jsonSummary } from './summary.ts'
import { onInterrupt, printLogs } from './watch.ts'

export async function runStudy(
  host: EngineHost,
  config: RunConfig,
  ctx: CliContext,
  o: { quiet: boolean; json?: string; allowConcurrent?: boolean },
): Promise<number> {
  const sweep = config.sweep!
  const progress = !o.quiet && ctx.isTTY ? new ProgressLine(ctx.stderr) : null
  const started: { value: number; runId: number }[] = []
  let stopping = false
  const current = () => started.at(-1)?.runId
  // The study's end; an error that cut it short reaches the terminal as a log line (printLogs).
  let ended: () => void = () => {}
  const over = new Promise<void>((resolve) => (ended = resolve))
  const offs = [
    host.runs.onProgress((e) => progress?.update(e)),
    printLogs(host, ctx),
    host.stacks.onLog((e) => !o.quiet && ctx.stderr.write(`  ${e.line}\n`)),
    host.local.onStudy((e) => {
      if (e.type === 'restart') {
        if (!o.quiet) ctx.stderr.write(`restarting ${e.stack} with ${JSON.stringify(e.env)}\n`)
      } else if (e.type === 'run') {
        started.push({ value: e.value, runId: e.runId })
        progress?.clear()
        if (!o.quiet) ctx.stderr.write(`${sweep.path} = ${e.value}: run ${e.runId}\n`)
        // Ctrl-C between two runs (a cooldown, a stack restart) stops the next one at once.
        if (stopping) void host.runs.stop(e.runId).catch(() => {})
      } else ended()
    }),
  ]
  let studyId: number
  try {
    studyId = (await host.runs.start(config, { allowConcurrent: o.allowConcurrent ?? false })).studyId!
    // The sweep goes on only after a run that ended `done`: stopping the current one ends it.
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
  const runs: { value: number; summary: RunSummary }[] = []
  for (const { value, runId } of started) runs.push({ value, summary: await host.runs.get(runId) })
  const results = await host.studies.get(studyId)
  if (!o.quiet) {
    for (const r of runs) ctx.stdout.write(formatSummary(r.summary))
    ctx.stdout.write(`\nstudy ${studyId}: ${sweep.path} over ${sweep.values.join(', ')}\n`)
    for (const t of results.targets) {
      ctx.stdout.write(`${t.target}\n  value      req/s   p50 ms   p95 ms   p99 ms\n`)
      for (const p of t.points) {
        ctx.stdout.write(
          `  ${String(p.value).padEnd(7)} ${p.throughput.toFixed(1).padStart(8)} ${(p.p50 / 1000).toFixed(2).padStart(8)} ${(p.p95 / 1000).toFixed(2).padStart(8)} ${(p.p99 / 1000).toFixed(2).padStart(8)}\n`,
        )
      }
      ctx.stdout.write(`  ${t.sentence}\n`)
    }
  }
  if (o.json)
    writeFileSync(
      o.json,
      JSON.stringify(
        { studyId, sweep, results, runs: runs.map((r) => ({ value: r.value, ...jsonSummary(r.summary) })) },
        null,
        2,
      ) + '\n',
    )
  const complete = runs.length === sweep.values.length && runs.every((r) => r.summary.status === 'done')
  return complete && runs.every((r) => r.summary.thresholdsPassed) ? 0 : 1
}
