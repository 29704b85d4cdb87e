// `cannonade run` of a config with `sweep`: one run per value, then the study's table and knee.
import { writeFileSync } from 'node:fs'
import type { RunConfig } from '../config/schema.ts'
import type { Db } from '../store/db.ts'
import { studyResults } from '../study/results.ts'
import { runStudy } from '../study/sweep.ts'
import { Stacks } from '../stacks/stacks.ts'
import { dirname, join } from 'node:path'
import type { CliContext } from './context.ts'
import { ProgressLine } from './progress.ts'
import { formatSummary, jsonSummary } from './summary.ts'

export async function runStudyCommand(
  db: Db,
  dbPath: string,
  config: RunConfig,
  o: { ctx: CliContext; quiet: boolean; json: string | undefined; cpu: number | undefined },
): Promise<number> {
  const { ctx } = o
  const progress = !o.quiet && ctx.isTTY ? new ProgressLine(ctx.stderr) : null
  const sweep = config.sweep!
  const stacks = new Stacks({
    stateDir: join(dirname(dbPath), 'native-stacks'),
    onLog: (_s, l) => !o.quiet && ctx.stderr.write(`  ${l}\n`),
  })
  const { studyId, runs } = await runStudy(
    db,
    dbPath,
    config,
    {
      onRunStart: ({ value, runId }) => {
        progress?.clear()
        if (!o.quiet) ctx.stderr.write(`${sweep.path} = ${value}: run ${runId}\n`)
      },
      onProgress: (e) => progress?.update(e),
      onLog: (level, message) => ctx.stderr.write(`${level}: ${message}\n`),
      // A stack-environment sweep (POOL_SIZE…): restart the stack with each value.
      restartStack: async (s) => {
        if (!o.quiet) ctx.stderr.write(`restarting ${s.name} with ${JSON.stringify(s.env)}\n`)
        await stacks.down(s.name)
        await stacks.up(s.name, { native: s.native, env: s.env })
      },
    },
    o.cpu !== undefined ? { cpu: o.cpu } : {},
  )
  progress?.clear()
  await stacks.close()
  const results = studyResults(db, studyId)
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
