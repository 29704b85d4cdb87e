// docs/results.md, the Java vs Node.js thesis (/work/shared/seeds' study 000): throughput of Java
// and Node.js (figure 7.1) and the pool size (figures 6.2, 6.3). What the thesis reported is quoted
// from its text; what this run measured is filled in from the results database.
import { fmtEffect } from '../../engine/metrics/compare-words.ts'
import type { Section } from './section.ts'
import { num, type Result } from './figures.ts'
import { percent, rate } from '../../renderer/src/lib/format.ts'
import {
  cpuCell,
  pointCells,
  acrossText,
  csvMs,
  decision,
  decisionWords,
  pairRounds,
  roundsLine,
  verdictLines,
  lengthWords,
  metricOf,
  pairTable,
  pointsOf,
  quote,
  rowOf,
  runLine,
  table,
} from './md.ts'
import { compareShot, runShot, studyShot } from './pages.ts'

const THESIS = 'the Java vs Node.js thesis'

const cpuText = (r: Result, target: string): string => {
  const v = r.cpuMean.get(target)
  // As the PDF report's table of the run prints it (engine/report/comparison.ts).
  return v === undefined ? '–' : `${v.toFixed(0)} %`
}

function javaVsNodeDiffers(r: Result): string {
  const c = r.compares.get(r.runs[0]!.runId)
  const thr = metricOf(c, 'throughput')
  const d = decision(thr)
  const verdict =
    d === 'higher'
      ? `Java is ahead here as well, by ${fmtEffect(thr!)}: ${1 + thr!.change! >= 1.8 ? 'close to' : 'less than'} the thesis' "nearly twice"`
      : d === 'lower'
        ? `Node.js is ahead here (java-jetty at ${fmtEffect(thr!)} of node-http's throughput), the reverse of the thesis`
        : d === 'same'
          ? `the two are the same here within the ±${c?.minEffect ?? 5} % margin (java-jetty at ${fmtEffect(thr!)} of node-http's throughput)`
          : `the difference is ${decisionWords(thr, c?.minEffect ?? 5, pairRounds(c))} (java-jetty at ${thr ? fmtEffect(thr) : '–'} of node-http's throughput)`
  return [
    `- **CPU.** The thesis' apps ran on a 4-CPU Cloud Foundry cell where "the Java application can utilize up to 250%" while Node.js, one thread, stayed near 100 %: its ≈ 2× is largely Java's extra cores. Here Docker caps each app container at 1 CPU; the apps used ${cpuText(r, 'java-jetty')} (java-jetty) and ${cpuText(r, 'node-http')} (node-http) of a core on average while measured, so ${verdict}. That is the comparison the thesis' figure 7.1 meant to make ("CPU consumption which can not exceed 100%").`,
    `- **One host.** The load generator, both apps and both PostgreSQL containers share this machine's 2 cores. The thesis' generator ran elsewhere and went through Cloud Foundry's router and HAProxy (which it found capped at about 400 requests/s); its figure 7.1 kept the mean response time under 10 ms, where here ${r.runs[0]!.config.load.connections} connections on a loaded machine queue behind each other and the generator's own waiting counts in the latency.`,
    `- **Rounds.** ${lengthWords(r)} (the two targets in a fresh random order each round: a slow patch of the shared machine falls on either, not always the same one), the warm-up not measured; the interval above is over the paired rounds. The thesis' generator ran fixed windows, "for example in one minute", tagged by test round.`,
  ].join('\n')
}

const javaVsNode: Section = {
  baseline: 'node-http',
  shots: (r) => {
    const id = r.runs[0]!.runId
    return [
      compareShot(
        id,
        'node-http',
        'compare-result',
        "The compare page: java-jetty against node-http, each metric's ratio and its 95 % interval",
      ),
      compareShot(
        id,
        'node-http',
        'compare-chart-throughput',
        "Throughput each second, each target's rounds overlaid",
      ),
      ...(r.cpuMean.size
        ? [
            compareShot(
              id,
              'node-http',
              'compare-chart-cpu',
              'Throughput against the CPU of each app, a point per second',
            ),
          ]
        : []),
    ]
  },
  summary: (r) => {
    const c = r.compares.get(r.runs[0]!.runId)
    const thr = metricOf(c, 'throughput')
    return {
      study: 'Java "nearly twice" the throughput of Node.js, Java using up to 250 % CPU, Node.js ≤ 100 %',
      run: `java-jetty's throughput ${thr ? fmtEffect(thr) : '–'} node-http's (${decisionWords(thr, c?.minEffect ?? 5, pairRounds(c))}), each app at 1 CPU (${cpuText(r, 'java-jetty')} and ${cpuText(r, 'node-http')} used)`,
    }
  },
  body: (r, images) => {
    const c = r.compares.get(r.runs[0]!.runId)
    return [
      `Figure 7.1 of ${THESIS}: throughput of the Java service (embedded Jetty, HikariCP) and the Node.js one (node:http, pg), no framework on either side, listing ads from PostgreSQL; here \`java-jetty\` and \`node-http\`, ${r.runs[0]!.config.load.connections} connections, ${lengthWords(r)}.`,
      "**What the study reported** (figure 7.1 is a bar chart: the text gives the ratio, not the bars' values):",
      quote(
        `${THESIS}, 7.1`,
        'At the beginning of the testing phase of the thesis, both applications are given the same amount of memory to ensure they have the same CPU share. It turns out, Java has nearly twice much throughput as the Node.js application.',
      ),
      quote(
        `${THESIS}, 7.1`,
        'The monitoring on CPU usage shows that the Java application can utilize up to 250%, in contrast which the Node.js application never quite exceeds the limit of 100%.',
      ),
      quote(
        `${THESIS}, 7.2`,
        'In this test, fixed variable is average end-to-end response time which is kept under 10 ms as a criteria for optimal performance. An additional bar is set on the CPU consumption which can not exceed 100%. […] In terms of applications on cloud, Java is twice more efficient than Node.js.',
      ),
      `**This run.** ${runLine(r)} The compare page's table (each side the geometric mean of its rounds):`,
      c ? pairTable(c) : '',
      c ? `The compare page's headline: "${c.headline}"` : '',
      verdictLines(c),
      roundsLine(r),
      table(
        ['target', 'CPU while measured (mean, 100 % = one core)'],
        ['java-jetty', 'node-http'].map((t) => [t, cpuText(r, t)]),
      ),
      ...images,
      '**What differs, and why.**',
      javaVsNodeDiffers(r),
    ]
      .filter(Boolean)
      .join('\n\n')
  },
}

/** The pool sizes' throughput: the highest over the lowest, minus one. */
function poolSpread(r: Result): number | null {
  const t = pointsOf(r, 'java-jetty').map((p) => p.throughput)
  return t.length > 1 ? Math.max(...t) / Math.min(...t) - 1 : null
}

function poolTable(r: Result): string {
  return table(
    [
      'POOL_SIZE',
      'throughput',
      'p50',
      'p99',
      'error rate',
      'db time (Server-Timing, mean)',
      'app CPU (mean)',
      'db connections (max)',
    ],
    pointsOf(r, 'java-jetty').map((p) => {
      const row = rowOf(r, 'java-jetty', p.label)
      return [
        ...pointCells(p, ['p50', 'p99']),
        csvMs(row, 'server_db_mean_us'),
        cpuCell(row),
        row?.db_connections_max || '–',
      ]
    }),
  )
}

/** A stepped ramp in words: "from 8 to 96, 8 more every 1.5 s, then held 7.5 s". */
function rampWords(r: Result): string {
  const p = r.runs[0]!.config.load.profile
  if (p.kind !== 'ramp') return ''
  const steps = p.stepSize && p.stepSeconds ? `, ${p.stepSize} more every ${p.stepSeconds} s` : ''
  return `from ${p.from ?? 1} to ${p.to ?? r.runs[0]!.config.load.connections}${steps}, then held`
}

/** A study run's value, by its run id: "POOL_SIZE 60". */
export function valueLabel(r: Result, name: string): (runId: number) => string {
  const points = r.study?.targets.flatMap((t) => t.points) ?? []
  return (runId) => `${name} ${points.find((p) => p.runId === runId)?.label ?? `run ${runId}`}`
}

function poolDiffers(r: Result): string {
  const spread = poolSpread(r)
  const cpus = pointsOf(r, 'java-jetty').map(
    (p) => num(rowOf(r, 'java-jetty', p.label)?.target_cpu_mean_percent) ?? 0,
  )
  const busy = cpus.length > 0 && Math.min(...cpus) >= 80
  const verdicts = r.across?.pairs.map((p) => p.metrics.find((m) => m.metric === 'throughput')?.verdict) ?? []
  const apart = verdicts.some((v) => v === 'higher' || v === 'lower')
  return [
    `- **${apart ? 'Pool sizes told apart here' : 'The pool is no bottleneck here either'}.** The verdicts above are the compare page's of the study's runs (throughput, rounds unpaired). The highest pool size's throughput is ${spread === null ? '–' : percent(spread * 100)} above the lowest's${busy ? `, while the Jetty container used ${cpus.map((c) => percent(c)).join(', ')} of its one CPU: the app's core is the limit, and a larger pool only adds connections waiting for it` : ''}. The thesis found "a slight difference" on a database that "only provides 100 concurrent connections".`,
    `- **Load.** The thesis added generator instances 4 at a time up to 96, each sending one request at a time; here connections step up the same way (${rampWords(r)}), and the study page gives each pool size's figures over the whole ramp. The database time each response reports (Server-Timing \`db\`) is the thesis' figure 6.3 line: each run's page and \`cannonade export csv RUN --series\` give it second by second.`,
    "- **Hardware.** The thesis' PostgreSQL ran in a container of a 4-CPU Diego cell; here it is a container limited to 1 CPU on the same 2 cores as the app and the load generator, so database, app and generator compete for the same cores, which no pool size can help.",
  ].join('\n')
}

const poolSize: Section = {
  shots: (r) => {
    const last = r.runs.at(-1)!.runId
    return [
      studyShot(r.found.studyId!, 0, 'The study page: throughput and latency against POOL_SIZE'),
      runShot(
        last,
        'db-connections',
        "The last pool size's run page: PostgreSQL connections by state each second",
      ),
    ]
  },
  summary: (r) => ({
    study: '30, 60 and 90 hardly differ ("not a deciding bottleneck"); 60 "a little bit better" than 30',
    run: `throughput ${pointsOf(r, 'java-jetty')
      .map((p) => `${p.label}: ${rate(p.throughput)}`)
      .join(', ')} (highest ${poolSpread(r) === null ? '–' : percent(poolSpread(r)! * 100)} above lowest)`,
  }),
  body: (r, images) =>
    [
      `Figures 6.2 and 6.3 of ${THESIS}: the Java service restarted with HikariCP pools of 30, 60 and 90 connections, load stepped up to 96 connections; here \`java-jetty\` with \`POOL_SIZE\` 30, 60 and 90, ${lengthWords(r)}.`,
      '**What the study reported** (both figures are charts without values in the text):',
      quote(
        `${THESIS}, 6.2`,
        'In order to verify and find the best fit for the load the thesis intend to generate, an experiment is conducted with connection pool size of 30, 60, and 90. Figure 6.2, shows a slight difference can be deducted that the pool size of 90 reaches the upper limit of total transaction slightly earlier than the other configurations. A little bit better is the performance from a connection pool size of 60 than that of 30.',
      ),
      quote(
        `${THESIS}, 6.2`,
        "As figure 6.3 shows, when the response time peaks, the database response time stays stable and can hardly be considered responsible for the peak. Since the database pool size doesn't pose a conspicuous difference, we can draw the conclusion that the database is working at a high speed with no noticeable delay therefore the pool size setting is not a deciding bottleneck at all.",
      ),
      `**This run.** ${runLine(r)} The study page's figures (throughput: the mean of the rounds; latency: the rounds' histograms merged), with the study CSV's database time, CPU and connections:`,
      poolTable(r),
      r.study?.targets[0] ? `The study page says: "${r.study.targets[0].sentence}"` : '',
      `**Verdict**, each pool size against 30 (the runs' rounds unpaired): ${acrossText(r.across, 'throughput', valueLabel(r, 'POOL_SIZE'))}.`,
      roundsLine(r, valueLabel(r, 'POOL_SIZE')),
      ...images,
      '**What differs, and why.**',
      poolDiffers(r),
    ]
      .filter(Boolean)
      .join('\n\n'),
}

export const THESIS_SECTIONS: Record<string, Section> = { 'java-vs-node': javaVsNode, 'pool-size': poolSize }
