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
  ROOT,
  type Experiment,
  type Length,
} from './experiments.ts'
import { readResult, type Result } from './figures.ts'
import { table } from './md.ts'
import { shoot } from './pages.ts'
import type { Section } from './section.ts'
import { THESIS_SECTIONS } from './sections-thesis.ts'
import { PHASES_SECTIONS } from './sections-phases.ts'
import { SOA_MARKET_SECTIONS } from './sections-soa-market.ts'

const SECTIONS: Record<string, Section> = { ...THESIS_SECTIONS, ...SOA_MARKET_SECTIONS, ...PHASES_SECTIONS }

function intro(length: Length, dataDir: string): string {
  const title = isFull(length)
    ? '# Results at full length'
    : `# Results of a check at ${length.rounds} round(s) × ${length.seconds} s (not the full length)`
  return `${title}

The five seed studies' headline experiments, run on this project's build machine by
\`npm run results\` (\`bench/results/\`): each template at ${length.rounds} round(s) × ${length.seconds} s,
through the engine as the app runs it, against the Docker stacks the template names (started by
the engine's stack policy, each app container limited to 1 CPU and 512 MB, its PostgreSQL to 1 CPU).
The figures and charts below are written by that script from the run's database
(\`${relative(ROOT, dbPathOf(dataDir))}\`): the charts are the app's own pages (study page, compare page,
run page) shot from it, the numbers are the ones those pages and the study CSV show. Running
\`npm run results\` again rewrites this page; \`npm run results -- --only pool-size\` runs one
experiment again, \`--doc\` redraws the page from the database without running anything.

**The machine**: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), one host for the
load generator, the servers and their databases, and shared with other engineers' test suites while
these runs went on: each section gives the load average its runs saw. A 2-core machine whose load
average is above 2 is queueing work: read the ratios between servers measured in the same run, not
the absolute figures.`
}

/** The doc: the intro, the summary table, then a section per experiment. */
function compose(
  length: Length,
  dataDir: string,
  parts: { exp: Experiment; r: Result | null; images: string[] }[],
): string {
  const rows = parts.map(({ exp, r }) => {
    const s = r ? SECTIONS[exp.id]!.summary(r) : { study: '', run: 'not run yet' }
    return [`[${exp.title}](#${anchor(exp)})`, `\`${exp.template}\``, s.study, s.run]
  })
  const sections = parts.map(({ exp, r, images }, i) => {
    const head = `## ${i + 1}. ${exp.title}\n\nTemplate \`${exp.template}\`.`
    if (!r) return `${head}\n\nNot run yet: \`npm run results -- --only ${exp.id}\`.`
    return `${head}\n\n${SECTIONS[exp.id]!.body(r, images)}`
  })
  return (
    [
      intro(length, dataDir),
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
async function gather(app: App, imgDir: string, imgRel: string, say: (l: string) => void) {
  const parts: { exp: Experiment; r: Result | null; images: string[] }[] = []
  for (const exp of EXPERIMENTS) {
    const found = await findResult(app.engine, exp)
    if (!found) {
      parts.push({ exp, r: null, images: [] })
      continue
    }
    const r = await readResult(app.engine, found, SECTIONS[exp.id]!.baseline)
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
export async function writeDoc(dataDir: string, length: Length, say: (l: string) => void): Promise<string> {
  const full = isFull(length)
  const docPath = full ? join(ROOT, 'docs', 'results.md') : join(dataDir, 'results.md')
  const imgDir = full ? join(ROOT, 'docs', 'results') : join(dataDir, 'images')
  rmSync(imgDir, { recursive: true, force: true })
  mkdirSync(imgDir, { recursive: true })
  const browser = await launchBrowser()
  try {
    const app = await startApp(browser, { dataDir, keep: true, viewport: { width: 1280, height: 900 } })
    try {
      const parts = await gather(app, imgDir, relative(join(docPath, '..'), imgDir), say)
      writeFileSync(docPath, compose(length, dataDir, parts))
    } finally {
      await app.close()
    }
  } finally {
    await browser.close()
  }
  return docPath
}
