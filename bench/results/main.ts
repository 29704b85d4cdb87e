// `npm run results [-- --only ID[,ID…]] [--seconds S] [--rounds R] [--doc]`: the five seed studies'
// headline experiments (bench/results/experiments.ts) at 3 rounds × 30 s on this machine, each
// through the engine host against the Docker stacks its template names, into a results database
// kept in artifacts/results/ (gitignored); then docs/results.md and its charts (docs/results/),
// drawn from that database by the app's own pages. Not a test: a run takes about 45 minutes.
// `--seconds 2 --rounds 1` checks the script in a few minutes, in a folder of its own
// (artifacts/results-check-2s-1r/, its results.md there), so a check never overwrites the full
// run's figures. `--doc` draws the doc again from the database without running anything.
import { execFileSync } from 'node:child_process'
import { cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { createEngine, type EngineHost } from '../../engine/host/index.ts'
import { loadManifest } from '../../engine/stacks/manifest.ts'
import { freePort } from '../../engine/stacks/postgres.ts'
import { listTemplates } from '../../engine/study/templates.ts'
import { writeDoc } from './doc.ts'
import {
  atLength,
  dataDirOf,
  dbPathOf,
  EXPERIMENTS,
  experimentOf,
  FULL,
  RUN_ORDER,
  type Experiment,
  type Length,
} from './experiments.ts'
import { load1, plannedSeconds, runExperiment } from './run.ts'

const USAGE = `usage: npm run results [-- --only ID[,ID…]] [--seconds S] [--rounds R] [--doc]
  --only      experiments to run (default all): ${EXPERIMENTS.map((e) => e.id).join(', ')}
  --seconds   seconds per round (default ${FULL.seconds}); another length runs in a check folder
  --rounds    rounds (default ${FULL.rounds})
  --doc       run nothing: draw the doc and its charts again from the results database`

interface Flags extends Length {
  only: Experiment[]
  docOnly: boolean
}

function parseFlags(argv: string[]): Flags {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string' },
      seconds: { type: 'string', default: String(FULL.seconds) },
      rounds: { type: 'string', default: String(FULL.rounds) },
      doc: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  })
  if (values.help) {
    console.log(USAGE)
    process.exit(0)
  }
  const whole = (flag: string, text: string, max: number) => {
    const n = Number(text)
    if (!Number.isInteger(n) || n < 1 || n > max)
      throw new Error(`--${flag}: a whole number 1-${max}, got "${text}"`)
    return n
  }
  const only = values.only
    ? values.only.split(',').map((id) => {
        const e = experimentOf(id.trim())
        if (!e)
          throw new Error(
            `--only: no experiment "${id}" (there are ${EXPERIMENTS.map((x) => x.id).join(', ')})`,
          )
        return e
      })
    : [...EXPERIMENTS]
  return {
    only: RUN_ORDER.map((id) => EXPERIMENTS.find((e) => e.id === id)!).filter((e) => only.includes(e)),
    seconds: whole('seconds', values.seconds, 600),
    rounds: whole('rounds', values.rounds, 10),
    docOnly: values.doc,
  }
}

/** `uptime`'s line: how loaded the shared machine was. */
function uptime(): string {
  try {
    return execFileSync('uptime', { encoding: 'utf8', timeout: 5000 }).trim()
  } catch {
    return `load average ${load1()}`
  }
}

/** Every bundled stack on a free port, so stacks someone else runs on 8081-8084 are no obstacle. */
async function stackPorts(): Promise<{ ports: Record<string, number>; byPort: Map<number, string> }> {
  const ports: Record<string, number> = {}
  const byPort = new Map<number, string>()
  for (const s of loadManifest().stacks) {
    ports[s.name] = await freePort()
    byPort.set(s.port, s.name)
  }
  return { ports, byPort }
}

/** The stacks the experiments from `i` on name: the others can go down. */
const stacksFrom = (plan: readonly { stacks: string[] }[], i: number) =>
  new Set(plan.slice(i).flatMap((p) => p.stacks))

async function downAll(host: EngineHost, keep: Set<string>, say: (l: string) => void): Promise<void> {
  for (const s of await host.stacks.status()) {
    if (s.state === 'down' || keep.has(s.name)) continue
    say(`stopping ${s.name}: no experiment left needs it`)
    await host.stacks.down(s.name).catch((err: unknown) => say(`could not stop ${s.name}: ${String(err)}`))
  }
}

/** Runs the plan; returns the experiments that did not complete, with why. */
async function runAll(flags: Flags, dataDir: string, say: (l: string) => void): Promise<string[]> {
  const templates = listTemplates()
  const { ports, byPort } = await stackPorts()
  const onPort = (u: string) => {
    const url = new URL(u)
    const stack = byPort.get(Number(url.port))
    if (stack) url.port = String(ports[stack])
    return url.toString()
  }
  const plan = flags.only.map((exp) => {
    const t = templates.find((x) => x.id === exp.template)
    if (!t) throw new Error(`resources/templates/${exp.template}.yaml is missing`)
    const c = atLength(t, exp, flags)
    const config = { ...c, targets: c.targets.map((x) => ({ ...x, url: onPort(x.url) })) }
    return { exp, config, planned: plannedSeconds(config), stacks: c.targets.map((x) => x.stack!.name) }
  })
  const total = plan.reduce((s, p) => s + p.planned, 0)
  say(
    `plan: ${plan.map((p) => `${p.exp.id} ~${Math.ceil(p.planned / 60)} min`).join(', ')}; ~${Math.ceil(total / 60)} min of load plus stack starts`,
  )
  const host = await createEngine({ dbPath: dbPathOf(dataDir), stackPorts: ports })
  const off = host.stacks.onLog((e) => {
    if (/^(not running|running with)/.test(e.line)) say(`${e.stack}: ${e.line}`)
  })
  let stopping = false
  const incomplete: string[] = []
  const onSignal = () => {
    stopping = true
    say('interrupted: stopping the run going on; no further experiment starts')
    void host.runs.active().then((ids) => ids.forEach((id) => void host.runs.stop(id).catch(() => {})))
  }
  process.on('SIGINT', onSignal)
  try {
    for (const [i, p] of plan.entries()) {
      if (stopping) break
      const tag = (l: string) => say(`[${p.exp.id}] ${l}`)
      tag(
        `${p.exp.title}: ${p.exp.template} at ${flags.rounds} × ${flags.seconds} s, ~${Math.ceil(p.planned / 60)} min; ${uptime()}`,
      )
      // Time limit: twice the plan, and 10 minutes for stacks to build and start.
      const limitSeconds = 2 * p.planned + 600
      const lengthText = `${flags.rounds} rounds × ${flags.seconds} s`
      const out = await runExperiment(host, p.exp, p.config, { limitSeconds, lengthText, say: tag }).catch(
        (err: unknown) => ({ runIds: [], studyId: null, problem: String(err), seconds: 0 }),
      )
      tag(`${out.problem ? `NOT COMPLETE (${out.problem})` : 'complete'} after ${out.seconds} s; ${uptime()}`)
      if (out.problem) incomplete.push(`${p.exp.id}: ${out.problem}`)
      await downAll(host, stacksFrom(plan, i + 1), tag)
    }
  } finally {
    process.off('SIGINT', onSignal)
    await downAll(host, new Set(), say)
    off()
    await host.close()
  }
  if (stopping) incomplete.push('interrupted')
  return incomplete
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2))
  const dataDir = dataDirOf(flags)
  const say = (line: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`)
  say(`results: ${dataDir} (${cpus().length} cores); ${uptime()}`)
  const incomplete = flags.docOnly ? [] : await runAll(flags, dataDir, say)
  const doc = await writeDoc(dataDir, flags, say)
  say(`wrote ${doc}; ${uptime()}`)
  if (incomplete.length) {
    say(`not complete: ${incomplete.join('; ')}`)
    process.exitCode = 1
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err))
  process.exit(2)
})
