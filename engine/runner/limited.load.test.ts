// What limited each target, against targets whose limit the test sets: a process held to a
// quarter of a core by its cgroup (each request burns 5 ms of CPU), a process holding 93 % of its
// cgroup's memory limit, a target that answers one request in five with a 503, a quiet one, and,
// at a rate its two connections cannot carry, a generator held back. The CPU and memory cases need
// root and a writable /sys/fs/cgroup; without them they print why and skip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LimitedBy } from '../api/types.ts'
import { jsonSummary } from '../cli/summary.ts'
import { compareRuns } from '../metrics/compare.ts'
import { esc } from '../report/format.ts'
import { buildReportHtml } from '../report/html.ts'
import { HistoryStore } from '../store/history-store.ts'
import { runCommand } from '../testing/cli.ts'
import { makeCgroup, type Cgroup } from '../testing/cgroup.ts'
import { startProcessTarget, type ProcessTarget } from '../testing/process-target.ts'
import { runConfig, type TestRun } from '../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'

const MIB = 1048576
const MEMORY_LIMIT = 192 * MIB
const SECONDS = 4

const cpuGroup = makeCgroup('cpu', { cpus: 0.25 })
const memoryGroup = makeCgroup('memory', { memoryBytes: MEMORY_LIMIT })
const noCgroup =
  typeof cpuGroup === 'string' ? cpuGroup : typeof memoryGroup === 'string' ? memoryGroup : null
if (noCgroup) console.warn(`limited.load.test: the CPU and memory cases are skipped: ${noCgroup}`)

let cpuBound: ProcessTarget | null = null
let memoryBound: ProcessTarget | null = null
let failing: CountingTarget
let quiet: CountingTarget
let slow: CountingTarget
let closed: TestRun
let rated: TestRun

beforeAll(async () => {
  if (!noCgroup) {
    cpuBound = await startProcessTarget({ burnMs: 5, cgroup: cpuGroup as Cgroup })
    // Node itself takes ~40-50 MiB: hold what brings the process to 93 % of its limit.
    const probe = await startProcessTarget()
    const base = probe.rss
    await probe.close()
    memoryBound = await startProcessTarget({
      burnMs: 1,
      holdBytes: Math.round(0.93 * MEMORY_LIMIT - base),
      cgroup: memoryGroup as Cgroup,
    })
  }
  failing = await startTarget({ delayMs: 5, failEvery: { every: 5, status: 503 } })
  quiet = await startTarget({ delayMs: 5 })
  slow = await startTarget({ delayMs: 20 })
  const processTargets =
    cpuBound && memoryBound
      ? [
          { name: 'cpu-bound', url: cpuBound.url, monitor: { kind: 'process', pid: cpuBound.pid } },
          { name: 'memory-bound', url: memoryBound.url, monitor: { kind: 'process', pid: memoryBound.pid } },
        ]
      : []
  closed = await runConfig({
    version: 1,
    name: 'limits, closed loop',
    targets: [
      ...processTargets,
      { name: 'failing', url: `${failing.url}/f` },
      { name: 'quiet', url: `${quiet.url}/q` },
    ],
    load: { connections: 4, duration: SECONDS },
    cooldownSeconds: 0,
  })
  // 400 requests a second on 2 connections to a 20 ms target: at most ~100 can leave on time.
  rated = await runConfig({
    version: 1,
    name: 'limits, a rate too high for its connections',
    targets: [{ name: 'held-back', url: `${slow.url}/s` }],
    load: { connections: 2, duration: SECONDS, rate: 400 },
    cooldownSeconds: 0,
  })
}, 120_000)

afterAll(async () => {
  await Promise.all([
    cpuBound?.close(),
    memoryBound?.close(),
    failing?.close(),
    quiet?.close(),
    slow?.close(),
  ])
  for (const g of [cpuGroup, memoryGroup]) if (typeof g !== 'string') g.remove()
})

const limit = (run: TestRun, target: string): LimitedBy =>
  run.summary.limitedBy.find((l) => l.target === target)!

describe('the limiting resource, named from what was measured', () => {
  it.skipIf(noCgroup !== null)('a target held to a quarter of a core: its CPU', () => {
    const l = limit(closed, 'cpu-bound')
    expect(l.kind, l.text).toBe('cpu')
    expect(l.text).toMatch(/its limit of 0\.25 cores/)
  })

  it.skipIf(noCgroup !== null)("a target near its cgroup's memory limit: its memory", () => {
    const l = limit(closed, 'memory-bound')
    expect(l.kind, l.text).toBe('memory')
    expect(l.text).toMatch(/of its 192 MiB limit/)
    // Its CPU was read against the CPUs it may run on, and was not the limit.
    expect(l.found.map((f) => f.kind)).not.toContain('cpu')
  })

  it('a target that fails one request in five: its errors', () => {
    const l = limit(closed, 'failing')
    expect(l.kind, l.text).toBe('errors')
    expect(l.text).toMatch(/20 % of requests failed \(unexpected status/)
  })

  it('a quiet, unmonitored target: nothing found, and what could not be seen', () => {
    const l = limit(closed, 'quiet')
    expect(l.kind, l.text).toBe('none')
    expect(l.unknown).toEqual(['its CPU (no monitor read it)', 'its memory (no monitor read it)'])
  })

  it('a rate its connections cannot carry: the generator, late', () => {
    const l = limit(rated, 'held-back')
    expect(l.kind, l.text).toBe('generator')
    expect(l.text).toMatch(/sends \(\d+ %\) never sent/)
    // The truth behind it: the target answered far fewer than the 1,600 the schedule asked for.
    expect(slow.requests).toBeLessThan(0.5 * 400 * SECONDS)
  })

  it("is each target's `limitedBy` in the summary `runs show --json` prints", () => {
    const json = jsonSummary(closed.summary)
    expect(json.overRounds.map((o) => [o.target, o.limitedBy?.kind])).toEqual(
      closed.summary.limitedBy.map((l) => [l.target, l.kind]),
    )
  })

  it('reads the same on every screen: runs show, the comparison headline and the report', async () => {
    const texts = closed.summary.limitedBy.map((l) => l.text)
    const { code, out } = await runCommand(closed.dbPath, ['runs', 'show', String(closed.summary.runId)])
    expect(code).toBe(0)
    for (const t of texts) expect(out).toContain(t)
    const store = new HistoryStore(closed.db)
    const headline = compareRuns(store.compareRounds([closed.summary.runId])).headline
    expect(headline).toContain(`failing: ${limit(closed, 'failing').text}`)
    const html = buildReportHtml(store, [closed.summary.runId])
    for (const t of texts) expect(html).toContain(esc(t))
  })
})
