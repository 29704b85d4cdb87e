// `npm run results [-- flags]` (bench/results/flags.ts lists them): the five seed studies' headline
// experiments (bench/results/experiments.ts) on this machine, each through the engine host against
// the Docker stacks its template names, into a results database kept in artifacts/results/
// (gitignored); then docs/results.md and its charts (docs/results/), drawn from that database by the
// app's own pages. Not a test.
//
// Length: 30 s rounds, rounds until every headline interval of a run is within ±2 % (or decided),
// 3-40 of them, each experiment within a 20-minute budget its sweep's runs share (--precision,
// --max-rounds, --budget-minutes), several targets in a random order each round. The whole run is
// bounded: six experiments × the budget (and one round past it), plus stack starts, plus up to
// --max-wait-minutes before each attempt, times 1 + --retries for an experiment that came out busy.
//
// A busy machine (bench/results/quiet.ts): before each experiment the script waits up to
// --max-wait-minutes (30) for the 1-minute load average to fall below the core count, saying where
// it stands every 30 s; after it, the experiment is busy when the wait ran out or more than
// --max-disturbed % (25) of its rounds were disturbed by other work (the engine's host rule, from
// each round's noise); a busy experiment runs again (--retries, 1), and if still busy its section is
// published marked: the machine was busier than its cores and its figures are not evidence.
// --allow-busy neither waits nor retries (a check on a shared machine): busy sections are marked.
//
// `--rounds 1 --seconds 2` checks the script in a few minutes, in a folder of its own
// (artifacts/results-check-2s-1r/, its results.md there), so a check never overwrites the full
// run's figures. `--doc` draws the doc again from the database without running anything.
import { execFileSync } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import { createEngine, type EngineHost } from '../../engine/host/index.ts'
import { loadManifest } from '../../engine/stacks/manifest.ts'
import { freePort } from '../../engine/stacks/postgres.ts'
import { listTemplates } from '../../engine/study/templates.ts'
import { writeDoc } from './doc.ts'
import { atLength, dataDirOf, dbPathOf, lengthText } from './experiments.ts'
import { parseFlags, USAGE, type Flags } from './flags.ts'
import { attemptQuietly, gateSentence, judgeSection, waitForQuiet, type Gate } from './quiet.ts'
import { load1, plannedSeconds, runExperiment, type Outcome } from './run.ts'

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
    const c = atLength(t, exp, flags.length)
    const config = { ...c, targets: c.targets.map((x) => ({ ...x, url: onPort(x.url) })) }
    return { exp, config, planned: plannedSeconds(config), stacks: c.targets.map((x) => x.stack!.name) }
  })
  const total = plan.reduce((s, p) => s + p.planned, 0)
  say(
    `plan: ${plan.map((p) => `${p.exp.id} ≤ ~${Math.ceil(p.planned / 60)} min`).join(', ')}; at most ~${Math.ceil(total / 60)} min of load plus stack starts${flags.quiet.allowBusy ? '' : `, up to ${flags.quiet.maxWaitMinutes} min of waiting for a quiet machine before each experiment, and each busy one up to ${1 + flags.quiet.retries} times`}`,
  )
  const host = await createEngine({ dbPath: dbPathOf(dataDir), stackPorts: ports })
  const off = host.stacks.onLog((e) => {
    if (/^(not running|running with)/.test(e.line)) say(`${e.stack}: ${e.line}`)
  })
  let stopping = false
  const incomplete: string[] = []
  const busy: string[] = []
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
      const length = lengthText(flags.length)
      tag(
        `${p.exp.title}: ${p.exp.template} at ${length}, at most ~${Math.ceil(p.planned / 60)} min; ${uptime()}`,
      )
      // Time limit: twice the plan, and 10 minutes for stacks to build and start.
      const limitSeconds = 2 * p.planned + 600
      const { last, marked } = await attemptQuietly<Outcome>({
        rule: flags.quiet,
        say: tag,
        stopped: () => stopping,
        failed: (out) => out.problem !== null,
        wait: (maxWaitMinutes) =>
          waitForQuiet({
            cores: cpus().length,
            maxWaitMinutes,
            load: () => loadavg()[0] ?? null,
            say: tag,
            stopped: () => stopping,
          }),
        run: async (gate: Gate, attempt, of) => {
          const noteTail = `Attempt ${attempt} of at most ${of}. ${gateSentence(gate)}`
          const lengthNote = `${length}, attempt ${attempt}`
          const out = await runExperiment(host, p.exp, p.config, {
            limitSeconds,
            lengthText: lengthNote,
            noteTail,
            say: tag,
          }).catch((err: unknown): Outcome => ({
            runIds: [],
            studyId: null,
            problem: String(err),
            seconds: 0,
          }))
          tag(
            `${out.problem ? `NOT COMPLETE (${out.problem})` : 'complete'} after ${out.seconds} s; ${uptime()}`,
          )
          return out
        },
        judge: async (out, gate) => {
          const runs = await Promise.all(out.runIds.map((id) => host.runs.get(id)))
          const j = judgeSection(runs, gate, flags.quiet)
          tag(j.words)
          return j
        },
      })
      if (last.outcome.problem) incomplete.push(`${p.exp.id}: ${last.outcome.problem}`)
      if (marked) busy.push(p.exp.id)
      await downAll(host, stacksFrom(plan, i + 1), tag)
    }
  } finally {
    process.off('SIGINT', onSignal)
    await downAll(host, new Set(), say)
    off()
    await host.close()
  }
  if (stopping) incomplete.push('interrupted')
  if (busy.length)
    say(`published marked as not evidence (the machine was busier than its cores): ${busy.join(', ')}`)
  return incomplete
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2))
  if (flags.help) {
    console.log(USAGE)
    return
  }
  const dataDir = dataDirOf(flags.length)
  const say = (line: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`)
  say(`results: ${dataDir} (${cpus().length} cores); ${uptime()}`)
  const incomplete = flags.docOnly ? [] : await runAll(flags, dataDir, say)
  const doc = await writeDoc(dataDir, flags.length, flags.quiet, say)
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
