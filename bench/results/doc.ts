// docs/results.md, written from the results database by `npm run results` (a template per
// experiment in bench/results/sections-*.ts, the numbers filled in from the run), with its charts
// shot from the app's pages on the same database: doc and run cannot drift apart. A shortened
// check writes its results.md and pictures into its own folder instead.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join, relative } from 'node:path'
import { launchBrowser, startApp, type App } from '../../e2e/support/app.ts'
import {
  dbPathOf,
  EXPERIMENTS,
  findResult,
  isFull,
  lengthText,
  ROOT,
  type Experiment,
  type Length,
} from './experiments.ts'
import { readResult, type Result } from './figures.ts'
import { busyMark, table } from './md.ts'
import type { QuietRule } from './quiet.ts'
import { shoot } from './pages.ts'
import type { Section } from './section.ts'
import { THESIS_SECTIONS } from './sections-thesis.ts'
import { PHASES_SECTIONS } from './sections-phases.ts'
import { SOA_MARKET_SECTIONS } from './sections-soa-market.ts'

const SECTIONS: Record<string, Section> = { ...THESIS_SECTIONS, ...SOA_MARKET_SECTIONS, ...PHASES_SECTIONS }

function intro(length: Length, dataDir: string, quiet: QuietRule): string {
  const title = isFull(length)
    ? '# Results at full length'
    : `# Results of a check at ${lengthText(length)} (not the full length)`
  const r = length.rounds
  const rounds =
    typeof r === 'number'
      ? `exactly ${r} round(s) of ${length.seconds} s (a check)`
      : `rounds of ${length.seconds} s until every headline interval of a run (p50, p99 and throughput, each other target against the baseline) is within ±${r.precision} % or decided against the ±5 % margin, ${r.min} to ${r.max} rounds, within ${r.budgetMinutes} minutes of rounds per experiment (a sweep's runs share them); several targets run in a fresh random order each round. An experiment of one target compares its runs (a sweep's values), not targets within a run, which the engine's rule cannot watch while a run goes on: each of its runs makes as many rounds as its share of the budget holds (${r.min} to ${r.max})`
  const busy = quiet.allowBusy
    ? 'This run was made with `--allow-busy`: it neither waited for a quiet machine nor retried a busy experiment'
    : `Before each experiment the script waits up to ${quiet.maxWaitMinutes} minutes (\`--max-wait-minutes\`) for the 1-minute load average to fall below the core count; an experiment that comes out busy runs again up to ${quiet.retries} time(s) (\`--retries\`)`
  return `${title}

The five seed studies' headline experiments, run on this project's build machine by
\`npm run results\` (\`bench/results/\`): each template with ${rounds}, through the engine as the
app runs it, against the Docker stacks the template names (started by the engine's stack policy,
each app container limited to 1 CPU and 512 MB, its PostgreSQL to 1 CPU). The whole run is bounded:
each experiment's rounds stop at their budget, so six experiments take at most six budgets of load
(and a round past each run's share; about two hours at the defaults) plus stack starts, the waits
below, and the repeats of busy experiments.
The figures and charts below are written by that script from the run's database
(\`${relative(ROOT, dbPathOf(dataDir))}\`): the charts are the app's own pages (study page, compare page,
run page) shot from it, the numbers are the ones those pages and the study CSV show. Running
\`npm run results\` again rewrites this page; \`npm run results -- --only pool-size\` runs one
experiment again, \`--doc\` redraws the page from the database without running anything.

**Each comparison** is either decided (faster, slower, more or fewer req/s, or the same within
±5 %) or said to be below what this machine can resolve in the rounds it had: its interval is
wider than the margin it would have to clear. Each section gives its runs' rounds and why they
stopped (every interval precise, or decided, or the most rounds, or the budget).

**A busy machine.** ${busy}. An experiment is busy when the load average was still at or above
the cores as it started, or when more than ${Math.round(quiet.maxDisturbedShare * 100)} % of its rounds (\`--max-disturbed\`) were
disturbed by other work (the engine's rule for each round: other processes used a quarter of the
cores or more, or the hypervisor took 5 % or more; the load average during a run is not the rule,
since it counts the run's own generator, servers and databases). A section still busy after its
attempts is published marked: a line at its top says the machine was busier than its cores and its
figures are not evidence. \`--allow-busy\` skips the waiting and the repeats (a check on a shared
machine); the marks stay.

**The machine**: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), one host for the
load generator, the servers and their databases, shared with other engineers' test suites: each
section gives the load average its runs saw and how many of their rounds other work disturbed.`
}

/** The doc: the intro, the summary table, then a section per experiment. */
function compose(
  length: Length,
  dataDir: string,
  quiet: QuietRule,
  parts: { exp: Experiment; r: Result | null; images: string[] }[],
): string {
  const rows = parts.map(({ exp, r }) => {
    const s = r ? SECTIONS[exp.id]!.summary(r) : { study: '', run: 'not run yet' }
    const run = r?.judgement.busy ? `**Not evidence (machine busier than its cores):** ${s.run}` : s.run
    return [`[${exp.title}](#${anchor(exp)})`, `\`${exp.template}\``, s.study, run]
  })
  const sections = parts.map(({ exp, r, images }, i) => {
    const head = `## ${i + 1}. ${exp.title}\n\nTemplate \`${exp.template}\`.`
    if (!r) return `${head}\n\nNot run yet: \`npm run results -- --only ${exp.id}\`.`
    const mark = busyMark(r)
    return `${head}\n\n${mark ? `${mark}\n\n` : ''}${SECTIONS[exp.id]!.body(r, images)}`
  })
  return (
    [
      intro(length, dataDir, quiet),
      table(['experiment', 'template', 'what the study reported', 'this run'], rows),
      ...sections,
      `Written ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (load average then ${loadavg()[0]!.toFixed(2)}).`,
    ].join('\n\n') + '\n'
  )
}

function anchor(exp: Experiment): string {
  const i = EXPERIMENTS.indexOf(exp) + 1
  return `${i}-${exp.title}`
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-')
}

/** Every experiment's result and charts, read through the app opened on the data folder. */
async function gather(app: App, imgDir: string, imgRel: string, quiet: QuietRule, say: (l: string) => void) {
  const parts: { exp: Experiment; r: Result | null; images: string[] }[] = []
  for (const exp of EXPERIMENTS) {
    const found = await findResult(app.engine, exp)
    if (!found) {
      parts.push({ exp, r: null, images: [] })
      continue
    }
    const r = await readResult(app.engine, found, quiet, SECTIONS[exp.id]!.baseline)
    const images: string[] = []
    for (const [i, shot] of SECTIONS[exp.id]!.shots(r).entries()) {
      const file = `${exp.id}-${i + 1}.png`
      await shoot(app, shot, join(imgDir, file))
      images.push(`![${shot.alt}](${imgRel}/${file})`)
    }
    say(
      `[${exp.id}] ${images.length} charts from ${found.studyId !== null ? `study ${found.studyId}` : `run ${found.runIds[0]}`}`,
    )
    parts.push({ exp, r, images })
  }
  return parts
}

/** Writes the doc (docs/results.md at full length) and its charts; returns the doc's path. */
export async function writeDoc(
  dataDir: string,
  length: Length,
  quiet: QuietRule,
  say: (l: string) => void,
): Promise<string> {
  const full = isFull(length)
  const docPath = full ? join(ROOT, 'docs', 'results.md') : join(dataDir, 'results.md')
  const imgDir = full ? join(ROOT, 'docs', 'results') : join(dataDir, 'images')
  rmSync(imgDir, { recursive: true, force: true })
  mkdirSync(imgDir, { recursive: true })
  const browser = await launchBrowser()
  try {
    const app = await startApp(browser, { dataDir, keep: true, viewport: { width: 1280, height: 900 } })
    try {
      const parts = await gather(app, imgDir, relative(join(docPath, '..'), imgDir), quiet, say)
      writeFileSync(docPath, compose(length, dataDir, quiet, parts))
    } finally {
      await app.close()
    }
  } finally {
    await browser.close()
  }
  return docPath
}
