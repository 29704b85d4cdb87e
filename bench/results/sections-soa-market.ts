// docs/results.md, the Tomcat vs WebLogic SOA thesis (study 003: big bang, tables 4.4-4.6) and the
// marketplace report (study 004: pooling on and off). What they reported is quoted from their
// text; what this run measured is filled in from the results database.
import { fmtEffect, fmtRatio } from '../../engine/metrics/compare-words.ts'
import type { Section } from './section.ts'
import { num, type Result } from './figures.ts'
import { ms, percent, rate } from '../../renderer/src/lib/format.ts'
import {
  cpuCell,
  pointCells,
  acrossText,
  csvMs,
  decision,
  decisionWords,
  pairRounds,
  roundsLine,
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

const SOA = 'the Tomcat vs WebLogic SOA thesis'
const MARKET = 'the marketplace performance report'

/** Tables 4.4-4.6 as printed (decimal commas), by threads: Tomcat then WebLogic, mean ms and tps. */
const SOA_TABLES = [
  { threads: 5, table: '4.4', tomcat: ['15,150', '312,795'], weblogic: ['15,018', '314,121'] },
  { threads: 15, table: '4.5', tomcat: ['18,971', '716,150'], weblogic: ['19,937', '680,923'] },
  { threads: 30, table: '4.6', tomcat: ['38,692', '710,365'], weblogic: ['38,120', '718,115'] },
]

function bigBangRun(r: Result): string {
  const tomcat = pointsOf(r, 'java-tomcat')
  return table(
    [
      'clients',
      'java-tomcat req/s',
      'mean',
      'p99',
      'java-jetty req/s',
      'mean',
      'p99',
      'java-tomcat / java-jetty throughput',
      'verdict',
    ],
    tomcat.map((p) => {
      const jetty = pointsOf(r, 'java-jetty').find((x) => x.label === p.label)
      const thr = metricOf(r.compares.get(p.runId), 'throughput')
      return [
        p.label,
        rate(p.throughput),
        csvMs(rowOf(r, 'java-tomcat', p.label), 'mean_us'),
        ms(p.p99),
        rate(jetty?.throughput),
        csvMs(rowOf(r, 'java-jetty', p.label), 'mean_us'),
        ms(jetty?.p99),
        thr ? fmtEffect(thr) : '–',
        (() => {
          const c = r.compares.get(p.runId)
          return decisionWords(thr, c?.minEffect ?? 5, pairRounds(c))
        })(),
      ]
    }),
  )
}

function bigBangDiffers(r: Result): string {
  const t = pointsOf(r, 'java-tomcat')
  const [p5, p15, p30] = [t[0], t[1], t[2]]
  const rise = p15 && p30 ? p30.throughput / p15.throughput - 1 : null
  const mean = (label: string | undefined) => num(rowOf(r, 'java-tomcat', label ?? '')?.mean_us)
  const m15 = mean(p15?.label)
  const m30 = mean(p30?.label)
  const plateau = rise !== null && Math.abs(rise) < 0.1
  const dirs = t.map((p) => decision(metricOf(r.compares.get(p.runId), 'throughput')))
  return [
    `- **Saturation.** The thesis saw Tomcat's throughput stop at 15 threads (716 → 710 transactions/s at 30) while its mean response time doubled (18.97 → 38.69 ms). Here java-tomcat went from ${rate(p15?.throughput)} at 15 clients to ${rate(p30?.throughput)} at 30 (${rise === null ? '–' : `${rise >= 0 ? '+' : ''}${percent(rise * 100)}`}), its mean latency from ${m15 === null ? '–' : ms(m15)} to ${m30 === null ? '–' : ms(m30)}: ${plateau ? 'the same plateau, reached already at 15 clients' : "not the thesis' plateau between 15 and 30 clients"}${p5 ? ` (at 5 clients: ${rate(p5.throughput)})` : ''}.`,
    `- **The two servers.** The thesis found them within 1-5 % of each other at every load. Here java-tomcat's throughput against java-jetty's is ${dirs.map((d, i) => `${t[i]!.label} clients: ${d === 'higher' ? 'higher' : d === 'lower' ? 'lower' : d === 'same' ? 'the same within the margin' : 'below what this machine can resolve'}`).join(', ')} (each value's compare page, rounds paired). WebLogic is not a bundled stack: embedded Jetty stands in for it.`,
    `- **The service.** The thesis' SoapUI sent a 259-byte SOAP message over the network to a web service that parsed it (about 15 ms at 5 threads); here \`POST /payload\` receives the same 259 bytes and returns their SHA-256, on the same host: far less work per request (java-tomcat answered ${p5 ? fmtRatio(p5.throughput / 312.795) : '–'} the thesis' transactions/s at 5 clients), so only the shape of the curves compares.`,
    `- **Length and machine.** ${lengthWords(r)} (Tomcat, Jetty, Tomcat…) instead of 120 s; each app at 1 CPU, the generator and both PostgreSQL containers on the same 2 cores. The issue names 5/15/25 clients: the thesis' big bang of the single service (its tests 1-3, the tables quoted here) is 5/15/30; 5/15/25 are its tests 7-9 on the chained services (\`soa-chained\`).`,
  ].join('\n')
}

const bigBang: Section = {
  baseline: 'java-jetty',
  shots: (r) => [
    studyShot(r.found.studyId!, 0, 'The study page, java-tomcat: throughput and latency against the clients'),
    studyShot(r.found.studyId!, 1, 'The study page, java-jetty: throughput and latency against the clients'),
    compareShot(
      r.runs.at(-1)!.runId,
      'java-jetty',
      'compare-result',
      'The compare page of the 30-client run: java-tomcat against java-jetty',
    ),
  ],
  summary: (r) => ({
    study:
      'Tomcat 313 → 716 → 710 transactions/s, mean 15.2 → 19.0 → 38.7 ms at 5/15/30 threads; WebLogic within 1-5 %',
    run: `java-tomcat ${pointsOf(r, 'java-tomcat')
      .map((p) => rate(p.throughput))
      .join(' → ')}, mean ${pointsOf(r, 'java-tomcat')
      .map((p) => csvMs(rowOf(r, 'java-tomcat', p.label), 'mean_us'))
      .join(' → ')}`,
  }),
  body: (r, images) =>
    [
      `Tests 1-3 of ${SOA} (tables 4.4-4.6, figures 4.1-4.6): one web service under a big bang (every client at once) of 5, 15 and 30 clients, a 259-byte request each time; here \`java-tomcat\` against \`java-jetty\` in the place of WebLogic, \`POST /payload\` with 259 bytes, ${lengthWords(r)}.`,
      '**What the study reported** (SoapUI, 120 s per test; the thesis writes decimal commas: 15,150 ms is 15.15 ms, 312,795 transactions/s is 312.8):',
      table(
        [
          'threads',
          'table',
          'Tomcat mean ms',
          'Tomcat transactions/s',
          'WebLogic mean ms',
          'WebLogic transactions/s',
        ],
        SOA_TABLES.map((x) => [String(x.threads), x.table, ...x.tomcat, ...x.weblogic]),
      ),
      quote(
        `${SOA}, 4.1.3`,
        'Comparing to the test 2, in this one the load was doubled (Table 4.3). Also the average response (Figure 4.5) time was nearly doubled and the average throughput remains same as in test 2. It means that the threshold of maximum efficiency has been reached in the previous test.',
      ),
      `**This run.** ${runLine(r)} The study page's figures (mean latency from the study CSV), and each value's compare page:`,
      bigBangRun(r),
      roundsLine(r, valueLabel(r, 'clients')),
      ...images,
      '**What differs, and why.**',
      bigBangDiffers(r),
    ].join('\n\n'),
}

function poolingRun(r: Result): string {
  return table(
    ['POOL_SIZE', 'throughput', 'p50', 'p95', 'p99', 'error rate', 'db connections (max)', 'app CPU (mean)'],
    pointsOf(r, 'java-tomcat').map((p) => {
      const row = rowOf(r, 'java-tomcat', p.label)
      return [...pointCells(p, ['p50', 'p95', 'p99']), row?.db_connections_max || '–', cpuCell(row)]
    }),
  )
}

function poolingDiffers(r: Result): string {
  const [off, on] = pointsOf(r, 'java-tomcat')
  const conns = (label: string | undefined) => rowOf(r, 'java-tomcat', label ?? '')?.db_connections_max || '–'
  const users = r.runs[0]!.config.load.connections
  return [
    `- **Pooling.** The report's pool took the app from 135 to 500 requests/s at its peak (3.7×). Here, on the compare page of the two runs: ${acrossText(r.across, 'throughput', valueLabel(r, 'POOL_SIZE'))} (the mean of each round, not a peak second); p50 ${ms(off?.p50)} without a pool, ${ms(on?.p50)} with one.`,
    `- **Connections and failures.** Without a pool the report's app opened connections until PostgreSQL's limit of 100 refused them ("sorry, too many clients already"): 3 % of requests failed, in clusters. Here at most ${conns(off?.label)} database connections were open without a pool and ${conns(on?.label)} with one: ${users} users cannot reach PostgreSQL's 100, so there are no refusals${off?.errorRate ? `, and the ${percent(off.errorRate * 100)} of requests that failed without a pool failed otherwise (their kinds are on the run page's errors chart)` : ', and no request failed without a pool'}.`,
    `- **Scale.** 3 000 Locust users spawned at 20/s for 10-12 minutes, against ${r.runs[0]!.config.load.connections} connections (users) here, ${lengthWords(r)}, with think time between a user's requests; the report's seconds-long response times came from thousands of users queueing.`,
    "- **Machine.** The report's Tomcat, PostgreSQL and Locust ran in Docker on one machine; here Tomcat and PostgreSQL are each limited to 1 CPU on the same 2 cores as the load generator. Registration hashes the password with PBKDF2 at 1 000 iterations; the report's Spring Security encoder used 185,000 (later 1,850): `marketplace-hashing` reproduces that.",
  ].join('\n')
}

const pooling: Section = {
  shots: (r) => [
    studyShot(
      r.found.studyId!,
      0,
      'The study page: throughput and latency for POOL_SIZE 0 (a connection per request) and 10',
    ),
    ...r.runs.map((run) =>
      runShot(
        run.runId,
        'db-connections',
        `PostgreSQL connections by state each second, ${valueLabel(r, 'POOL_SIZE')(run.runId)}`,
      ),
    ),
  ],
  summary: (r) => {
    const [off, on] = pointsOf(r, 'java-tomcat')
    return {
      study:
        'no pool: peak 135 requests/s, 3 % failed, median 40 s; pool of 10: peak 500 requests/s, none failed, median 8 s',
      run: `POOL_SIZE 0: ${rate(off?.throughput)}, ${percent((off?.errorRate ?? 0) * 100)} failed, p50 ${ms(off?.p50)}; POOL_SIZE 10: ${rate(on?.throughput)}, ${percent((on?.errorRate ?? 0) * 100)} failed, p50 ${ms(on?.p50)}`,
    }
  },
  body: (r, images) =>
    [
      `The connection pooling section of ${MARKET}: users who register, log in and browse, against Tomcat with PostgreSQL, with a new database connection for every operation ("DefaultPool") and with HikariCP's pool of 10; here \`java-tomcat\` with \`POOL_SIZE\` 0 and 10, ${r.runs[0]!.config.load.connections} users (connections), ${lengthWords(r)}.`,
      '**What the study reported:**',
      table(
        ['', 'DefaultPool (no pool)', 'HikariPool (10)'],
        [
          ['test length', '10 minutes', '12 minutes'],
          ['failed requests', '3 %', 'none'],
          ['median response time', '40 s (after registration)', '8 s'],
          ['95th percentile', 'spikes up to 80 s', 'close to the median'],
          ['requests/s (maximum)', '135', '500'],
          ['open database connections', "never above 100 (PostgreSQL's limit)", 'stable at 10'],
        ],
      ),
      quote(
        `${MARKET}, Connection Pooling`,
        'Each load test has a total of 3000 users, with the number of users ramping up at 20 users per second. […] The test ran for 10 minutes and had a failure rate of 3% of requests. […] The maximum requests per second serviced by our application is now 500, compared to the previous value of 135.',
      ),
      `**This run.** ${runLine(r)} The study page's figures, with the study CSV's database connections and CPU:`,
      poolingRun(r),
      `**Verdict**, POOL_SIZE 10 against 0 (the runs' rounds unpaired): ${acrossText(r.across, 'throughput', valueLabel(r, 'POOL_SIZE'))}.`,
      roundsLine(r, valueLabel(r, 'POOL_SIZE')),
      ...images,
      '**What differs, and why.**',
      poolingDiffers(r),
    ].join('\n\n'),
}

export const SOA_MARKET_SECTIONS: Record<string, Section> = { 'big-bang': bigBang, pooling }
