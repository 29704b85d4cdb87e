// docs/results.md, the phased-client assignment (study 001: throughput and p99 at 32-256 threads)
// and the Node.js multiprocessing paper (study 002: task size, split vs whole, figure 4). What they
// reported is quoted from their text; what this run measured is filled in from the results database.
import { fmtEffect } from '../../engine/metrics/compare-words.ts'
import type { Section } from './section.ts'
import { num, type Result } from './figures.ts'
import { ms, percent, rate } from '../../renderer/src/lib/format.ts'
import {
  acrossText,
  csvMs,
  decision,
  decisionWords,
  pairRounds,
  roundsLine,
  pointCells,
  lengthWords,
  metricOf,
  pointsOf,
  quote,
  rowOf,
  runLine,
  table,
} from './md.ts'
import { compareShot, runShot, studyShot } from './pages.ts'
import { valueLabel } from './sections-thesis.ts'

const PHASES = 'the phased-client assignment'
const NODESCALA = 'the Node.js multiprocessing paper'

/** Its "Throughput Comparison" and "P99 Comparison" tables (32/64/128/256 threads; - = not run). */
const PHASES_TABLES = [
  ['GCP without load balancer', ['651', '849', '882', '-'], ['0.031', '0.069', '0.146', '-']],
  ['GCP with load balancer', ['614', '872', '923', '911'], ['0.024', '0.034', '0.125', '0.265']],
  ['EC2 without load balancer', ['560', '811', '886', '1256'], ['0.026', '0.054', '0.154', '0.263']],
  ['EC2 with load balancer', ['597', '593', '866', '907'], ['0.042', '0.098', '0.074', '0.168']],
] as const

/** Every phase of every round: is p95 ≤ p99 (the assignment's client printed p95 above p99)? */
function monotone(r: Result): { phases: number; ok: number } {
  const phases = r.runs.flatMap((run) => run.results.flatMap((x) => x.phases))
  return { phases: phases.length, ok: phases.filter((p) => p.latency.p95 <= p.latency.p99).length }
}

/** The phases of the run's profile: "warmup 4.7 s at 10 % of the connections, …". */
function phaseWords(r: Result): string {
  const p = r.runs[0]!.config.load.profile
  if (p.kind !== 'phases') return ''
  return (
    p.phases
      .map((ph) => `${ph.name} ${(ph.duration ?? 0).toFixed(1)} s at ${Math.round(ph.share * 100)} %`)
      .join(', ') + ' of the peak connections'
  )
}

function phasesDiffers(r: Result): string {
  const pts = pointsOf(r, 'server')
  const first = pts[0]
  const last = pts.at(-1)
  const m = monotone(r)
  const knee = r.study?.targets[0]?.knee ?? null
  return [
    `- **The knee.** The assignment's throughput stopped rising from 128 threads on (923 → 911 requests/s behind GCP's balancer) while p99 doubled (0.125 → 0.265 s). Here throughput went from ${rate(first?.throughput)} at ${first?.label ?? '–'} connections to ${rate(last?.throughput)} at ${last?.label ?? '–'}, p99 from ${ms(first?.p99)} to ${ms(last?.p99)}; ${knee === null ? 'the study page finds no knee in that range' : `the study page puts the knee at ${knee} connections`}.`,
    `- **Percentiles.** The assignment printed a p95 above its p99 in most of its runs (0.374 s against 0.265 s at 256 threads behind GCP's balancer): a bug of its own client. Here p95 ≤ p99 in ${m.ok} of ${m.phases} phases of every round (the figures are exact, from HDR histograms).`,
    "- **The server.** The assignment's servlet (GlassFish, C3P0, a database of RDS or Cloud SQL) ran on autoscaled EC2 or GCP instances behind a load balancer, its client on a separate machine; here one Node.js process (`node-http`) with 1 CPU, its PostgreSQL with 1 CPU, and the load generator share 2 cores, so the figures are this machine's, not a cloud's.",
    `- **The phases.** Its client sent 100 iterations per thread in each phase (a request count), so a phase lasted as long as the server took; here each phase is a part of the round (${phaseWords(r)}), and throughput is the responses per second over the whole round, as the assignment's "overall throughput across all phases" is.`,
  ].join('\n')
}

const phasesThreads: Section = {
  shots: (r) => [
    studyShot(r.found.studyId!, 0, 'The study page: throughput and p50/p95/p99 against the peak connections'),
    runShot(
      r.runs.at(-1)!.runId,
      'latency',
      'The 256-connection run page: latency each second, the phases marked',
    ),
  ],
  summary: (r) => ({
    study:
      'GCP with a load balancer: 614 / 872 / 923 / 911 requests/s, p99 24 / 34 / 125 / 265 ms at 32/64/128/256 threads',
    run: `${pointsOf(r, 'server')
      .map((p) => rate(p.throughput))
      .join(' / ')}, p99 ${pointsOf(r, 'server')
      .map((p) => ms(p.p99))
      .join(' / ')}`,
  }),
  body: (r, images) =>
    [
      `The tables "Throughput Comparison" and "P99 Comparison" of ${PHASES}: a Java client with warmup, load, peak and cooldown phases (10 %, 50 %, 100 % and 25 % of its threads), its peak at 32, 64, 128 and 256 threads; here \`node-http\` under the \`phases\` profile, the peak swept over the same counts, ${lengthWords(r)}.`,
      '**What the study reported** (requests/s over all phases, and p99 in seconds, as its tables print them):',
      table(
        ['deployment', '32', '64', '128', '256', 'p99 32', 'p99 64', 'p99 128', 'p99 256'],
        PHASES_TABLES.map(([name, thr, p99]) => [name, ...thr, ...p99]),
      ),
      quote(
        `${PHASES}, GCP with a load balancer, 256 threads`,
        'Total requests sent: 1925500 Total response received: 1925500 Total wall time: 2112.845 seconds […] Overall throughput across all phases: 911.3304699110133 seconds latency of 95th Percentile: 0.374 seconds latency of 99th Percentile: 0.265 seconds',
      ),
      `**This run.** ${runLine(r)} The study page's figures:`,
      table(
        ['peak connections', 'throughput', 'p50', 'p95', 'p99', 'error rate'],
        pointsOf(r, 'server').map((p) => pointCells(p, ['p50', 'p95', 'p99'])),
      ),
      r.study?.targets[0] ? `The study page says: "${r.study.targets[0].sentence}"` : '',
      `**Verdict**, each peak against ${pointsOf(r, 'server')[0]?.label ?? 'the first'} connections (the runs' rounds unpaired): ${acrossText(r.across, 'throughput', valueLabel(r, 'peak'))}.`,
      roundsLine(r, valueLabel(r, 'peak')),
      ...images,
      '**What differs, and why.**',
      phasesDiffers(r),
    ]
      .filter(Boolean)
      .join('\n\n'),
}

const WHOLE = 'whole task'
const SPLIT = 'split in 4'

function taskRun(r: Result): string {
  return table(
    [
      'iterations',
      `${WHOLE}: mean`,
      'p50',
      'requests',
      `${SPLIT}: mean`,
      'p50',
      'requests',
      `${SPLIT} / ${WHOLE}, mean latency`,
      'verdict',
    ],
    pointsOf(r, WHOLE).map((p) => {
      const split = pointsOf(r, SPLIT).find((x) => x.label === p.label)
      const w = rowOf(r, WHOLE, p.label)
      const s = rowOf(r, SPLIT, p.label)
      const mean = metricOf(r.compares.get(p.runId), 'mean')
      return [
        p.label,
        csvMs(w, 'mean_us'),
        ms(p.p50),
        w?.requests ?? '–',
        csvMs(s, 'mean_us'),
        ms(split?.p50),
        s?.requests ?? '–',
        mean ? fmtEffect(mean) : '–',
        decisionWords(mean, r.compares.get(p.runId)?.minEffect ?? 5, pairRounds(r.compares.get(p.runId))),
      ]
    }),
  )
}

function taskDiffers(r: Result): string {
  const last = pointsOf(r, WHOLE).at(-1)
  const mean = last ? metricOf(r.compares.get(last.runId), 'mean') : undefined
  const d = decision(mean)
  const c = last ? r.compares.get(last.runId) : undefined
  const cpu = num(rowOf(r, WHOLE, last?.label ?? '')?.target_cpu_mean_percent)
  const words =
    d === 'lower'
      ? 'faster, as in the paper'
      : d === 'higher'
        ? 'slower, the reverse of the paper'
        : d === 'same'
          ? 'the same as the whole within the margin'
          : decisionWords(mean, c?.minEffect ?? 5, pairRounds(c))
  return [
    `- **The result.** At ${last?.label ?? '–'} iterations the split task's mean latency is ${mean ? fmtEffect(mean) : '–'} the whole one's (rounds paired): ${words}, where the paper measured 74 % at its largest task.`,
    `- **CPU.** The paper's machine had 24 vCPUs, so Node Scala's four back-ends computed their parts at the same time. Here the \`node-cluster\` container is limited to 1 CPU (its ${last ? `workers used ${cpu === null ? '–' : percent(cpu)} of a core on average at ${last.label} iterations` : 'workers share it'}): four workers share one core, so the parts of a split task take turns and splitting can only add the cost of handing them out and joining them. The template sets \`WORKERS: 4\` but not the CPU; \`stack.env.CANNONADE_APP_CPUS: 2\` would give the parts a second core (this machine has only 2, shared with the load generator).`,
    '- **The task.** The paper streamed thousands of MongoDB documents per request through its back-ends; PBKDF2 iterations stand in for them (CPU-bound, cut into equal parts). Node Cluster had five instances, Node Scala one front-end and four back-ends; here one cluster of four workers serves both ways, `split=1` (one worker computes it) and `split=4` (the worker that got the request has the primary hand a part to each worker, then joins them).',
    `- **Repetitions.** The paper averaged 60 requests per size, one at a time; here one connection sends one request at a time, ${lengthWords(r)}, so each size has as many requests as fit (the table's counts).`,
  ].join('\n')
}

const taskSize: Section = {
  baseline: WHOLE,
  shots: (r) => [
    studyShot(r.found.studyId!, 0, `The study page, ${WHOLE}: throughput and latency against the iterations`),
    studyShot(r.found.studyId!, 1, `The study page, ${SPLIT}: throughput and latency against the iterations`),
    compareShot(
      r.runs.at(-1)!.runId,
      WHOLE,
      'compare-result',
      `The compare page of the largest task: ${SPLIT} against ${WHOLE}`,
    ),
  ],
  summary: (r) => {
    const last = pointsOf(r, WHOLE).at(-1)
    const mean = last ? metricOf(r.compares.get(last.runId), 'mean') : undefined
    return {
      study:
        'split (Node Scala) 74 % of whole (Node Cluster) response time at 300 000 documents, one request at a time',
      run: `${SPLIT} at ${mean ? fmtEffect(mean) : '–'} of ${WHOLE}'s mean latency at ${last?.label ?? '–'} iterations (${decisionWords(mean, r.compares.get(last?.runId ?? -1)?.minEffect ?? 5, pairRounds(r.compares.get(last?.runId ?? -1)))}), the cluster at 1 CPU`,
    }
  },
  body: (r, images) =>
    [
      `Figure 4 of ${NODESCALA}: response time against the size of the task, one request at a time, the task computed whole by one process (Node Cluster) or split across four back-ends and joined (Node Scala); here \`node-cluster\` with \`WORKERS: 4\`, \`/compute?iterations=N&split=1\` against \`split=4\`, N from 1 000 to 300 000, ${lengthWords(r)}.`,
      '**What the study reported** (figure 4 is a chart: the text gives the ratio at the largest size):',
      quote(
        `${NODESCALA}, VI-E`,
        'In this experiment only one request was issued at a time. Node Cluster has five Node.js instances and Node Scala has one front-end server and four back-end servers. This experiment is repeated 60 times. […] the response time of Node Scala is much smaller than Node Cluster for all values of the number of documents in the tested range of 1,000 to 300,000. As the number of requested documents grows the difference in response time of the two platforms grows; for the highest measured number the response time of Node Scala is 74 % of that of Node Cluster.',
      ),
      quote(
        `${NODESCALA}, VI-C`,
        'Each machine has two Intel(R) Xeon(R) E5-2640 CPUs, running at a frequency of 2.5 GHz. Each CPU has 6 cores and feature Hyper-Threading, meaning there are 24 VCPUs available per machine.',
      ),
      `**This run.** ${runLine(r)} The study page's p50 with the study CSV's mean and request counts, and each size's compare page (${SPLIT} against ${WHOLE}, rounds paired):`,
      taskRun(r),
      roundsLine(r, valueLabel(r, 'iterations')),
      ...images,
      '**What differs, and why.**',
      taskDiffers(r),
    ].join('\n\n'),
}

export const PHASES_SECTIONS: Record<string, Section> = {
  'phases-threads': phasesThreads,
  'task-size': taskSize,
}
