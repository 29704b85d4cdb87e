// `cannonade export junit`: a run's thresholds as JUnit XML, for CI pipelines (Jenkins, GitLab,
// GitHub test reporters). One test suite per target, one test case per threshold and target,
// failures carrying actual vs limit; one more case says whether the run itself completed.
import type { ExportResult, ThresholdResult } from '../api/types.ts'
import { formatMetricValue as formatMetric, thresholdLimit } from '../metrics/units.ts'
import type { Db } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { finishedRun } from '../store/export-read.ts'
import { writeOutput } from './write.ts'

// Characters XML 1.0 cannot carry at all: dropped.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g
const SPECIAL: Record<string, string> = {
  '<': '&lt;',
  '>': '&gt;',
  '&': '&amp;',
  '"': '&quot;',
  "'": '&apos;',
}

export function xmlEscape(text: string): string {
  return text.replace(NOT_XML, '').replace(/[<>&"']/g, (c) => SPECIAL[c] ?? c)
}

// Values and limits in the units every screen uses (engine/metrics/units.ts): ms for latency
// (stored in µs), req/s, % of requests.
const limitText = thresholdLimit

function testcase(
  classname: string,
  name: string,
  failure: { message: string; detail: string } | null,
): string {
  const head = `    <testcase classname="${xmlEscape(classname)}" name="${xmlEscape(name)}" time="0"`
  if (!failure) return `${head}/>\n`
  return `${head}>\n      <failure type="threshold" message="${xmlEscape(failure.message)}">${xmlEscape(failure.detail)}</failure>\n    </testcase>\n`
}

export function junitXml(run: {
  runId: number
  name: string
  status: string
  error: string | null
  startedAt: string
  endedAt: string | null
  thresholds: ThresholdResult[]
}): { xml: string; tests: number; failures: number } {
  const seconds = run.endedAt ? Math.max(0, (Date.parse(run.endedAt) - Date.parse(run.startedAt)) / 1000) : 0
  const byTarget = new Map<string, ThresholdResult[]>()
  for (const t of run.thresholds) byTarget.set(t.target, [...(byTarget.get(t.target) ?? []), t])
  const suites: { name: string; cases: string[]; failures: number }[] = []
  const completed = run.status === 'done'
  suites.push({
    name: 'run',
    failures: completed ? 0 : 1,
    cases: [
      testcase(
        'cannonade.run',
        'run completed',
        completed
          ? null
          : {
              message: `run ${run.status}${run.error ? `: ${run.error}` : ''}`,
              detail: `run ${run.runId} ended as ${run.status}`,
            },
      ),
    ],
  })
  for (const [target, results] of byTarget) {
    let failures = 0
    const cases = results.map((t) => {
      const name = `${t.metric} ${limitText(t)}`
      if (t.passed) return testcase(`cannonade.${target}`, name, null)
      failures++
      const actual = t.actual === null ? 'no data' : formatMetric(t.metric, t.actual)
      return testcase(`cannonade.${target}`, name, {
        message: `${t.metric} = ${actual}, limit ${limitText(t)}`,
        detail: `${t.metric} of ${target} in run ${run.runId}: actual ${actual}, limit ${limitText(t)}${t.actual === null ? ' (no responses to measure)' : ''}`,
      })
    })
    suites.push({ name: target, cases, failures })
  }
  const tests = suites.reduce((s, x) => s + x.cases.length, 0)
  const failures = suites.reduce((s, x) => s + x.failures, 0)
  const body = suites
    .map(
      (s) =>
        `  <testsuite name="${xmlEscape(s.name)}" tests="${s.cases.length}" failures="${s.failures}" errors="0" skipped="0" ` +
        `time="${seconds.toFixed(3)}" timestamp="${xmlEscape(run.startedAt)}">\n${s.cases.join('')}  </testsuite>\n`,
    )
    .join('')
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="${xmlEscape(`cannonade run ${run.runId}: ${run.name}`)}" tests="${tests}" failures="${failures}" errors="0" time="${seconds.toFixed(3)}">\n` +
    `${body}</testsuites>\n`
  return { xml, tests, failures }
}

/** Write a run's thresholds as JUnit XML; rows counts test cases. */
export async function exportJunit(
  db: Db,
  runId: number,
  outPath: string,
): Promise<ExportResult & { failures: number }> {
  // One read transaction; a running run has no verdict yet: refused, as every export refuses it.
  const run = db.transaction(() => {
    finishedRun(db, runId)
    return new HistoryStore(db).getRun(runId)
  })()
  const { xml, tests, failures } = junitXml(run)
  await writeOutput(outPath, [xml], { dbPath: db.name })
  return { runIds: [runId], rows: tests, path: outPath, failures }
}
