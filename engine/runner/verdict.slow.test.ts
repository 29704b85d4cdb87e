// A verdict in the time given (issue 27, item 6): two counting targets in processes of their own,
// whose service times the test sets, 20 ms against 22 ms (node's timers resolve whole
// milliseconds: 4.0 and 4.4 ms came out the same by the targets' own logs), run as rounds until
// precise in a random order, once as they are and once with a CPU hog switched on and off at random
// while the run goes on. The build machine is shared (load 15–25 on 2 cores while this was
// written): a target that waits for a CPU behind others' tests answers when it gets one, and its
// set service time is lost (20 and 23 ms logged the same there). So the targets, the runner and
// the hog run at a higher priority than the rest of the machine (nice −10, where permitted): the
// hog then competes with the run as it would on a machine of its own.
// Each run must reach the right verdict (the slower target called slower at the median) within its
// budget, and its interval must hold the true ratio: each target's median service time from its
// own log plus its own loopback overhead (what the client measured minus what the server logged,
// per correlation id, as engine/cli/compare.slow.test.ts derives it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CompareMetric, RunSummary } from '../api/types.ts'
import { compareRuns } from '../metrics/compare.ts'
import { seededRandom } from '../metrics/random.ts'
import { HistoryStore } from '../store/history-store.ts'
import { runConfig, type TestRun } from '../testing/run-config.ts'
import { CpuHog, prioritize, startTargetProcess, type TargetProcess } from '../testing/target-process.ts'

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

let fast: TargetProcess
let slow: TargetProcess

beforeAll(async () => {
  ;[fast, slow] = await Promise.all([
    startTargetProcess({ delayMs: 20 }),
    startTargetProcess({ delayMs: 22 }),
  ])
  elevate(fast.pid)
  elevate(slow.pid)
})

const PRIORITY = -10

/** The run's own processes ahead of the machine's other work; said when not permitted. */
function elevate(pid: number): void {
  const why = prioritize(pid, PRIORITY)
  if (why) console.log(`${why}: the machine's other work may blur the targets' service times`)
}

afterAll(async () => {
  await Promise.all([fast?.close(), slow?.close()])
})

const BUDGET_MINUTES = 2.5

async function abRun(name: string, hog: CpuHog | null): Promise<TestRun> {
  const rand = seededRandom(name.length)
  let timer: NodeJS.Timeout | null = null
  const flip = () => {
    if (!hog) return
    if (rand() < 0.5) hog.start()
    else hog.stop()
    timer = setTimeout(flip, 500 + rand() * 2500)
  }
  flip()
  try {
    return await runConfig(
      {
        version: 1,
        name,
        targets: [
          { name: 'fast', url: `${fast.url}/ab`, monitor: { kind: 'process', pid: fast.pid } },
          { name: 'slow', url: `${slow.url}/ab`, monitor: { kind: 'process', pid: slow.pid } },
        ],
        load: { connections: 4, duration: 1 },
        rounds: { min: 3, max: 200, precision: 2, budgetMinutes: BUDGET_MINUTES },
        cooldownSeconds: 0,
      },
      (handle) => elevate(handle.pid),
    )
  } finally {
    if (timer) clearTimeout(timer)
    hog?.stop()
  }
}

/** The true p50 ratio slow/fast: each target's median service time plus its own loopback overhead. */
async function truth(run: TestRun): Promise<number> {
  const rows = run.db
    .prepare('SELECT seq, latency_us AS us FROM samples WHERE run_id = ? AND error = 0')
    .all(run.summary.runId) as { seq: number; us: number }[]
  const prefix = run.summary.correlationPrefix
  const client = new Map(rows.map((r) => [`${prefix}-${String(r.seq).padStart(10, '0')}`, r.us]))
  const of = async (t: TargetProcess): Promise<number> => {
    const served = (await t.served()).filter((s) => client.has(s.id))
    expect(served.length).toBeGreaterThan(300)
    return median(served.map((s) => s.us)) + median(served.map((s) => client.get(s.id)! - s.us))
  }
  return (await of(slow)) / (await of(fast))
}

function verdict(run: RunSummary & { runId: number }, db: TestRun['db']): CompareMetric {
  const result = compareRuns(new HistoryStore(db).compareRounds([run.runId]))
  const p50 = result.pairs[0]!.metrics.find((m) => m.metric === 'p50')!
  console.log(`${run.name}: ${result.headline}`)
  for (const r of result.rounds) console.log(`  ${r.words}`)
  return p50
}

describe('rounds until precise reach the right verdict within the budget', () => {
  for (const withHog of [false, true]) {
    it(
      withHog ? 'with a CPU hog switched on and off at random' : 'on the machine as it is',
      async () => {
        const hog = withHog ? new CpuHog(PRIORITY) : null
        const run = await abRun(withHog ? 'A/B beside a hog' : 'A/B', hog)
        const s = run.summary
        expect(s.status).toBe('done')
        const elapsed = (Date.parse(s.endedAt!) - Date.parse(s.startedAt)) / 60_000
        expect(elapsed).toBeLessThanOrEqual(BUDGET_MINUTES + 0.5)
        expect(s.rounds.schedule).toBe('randomized')
        expect(s.rounds.reason).toMatch(/^(precise|decided|budget|max)$/)
        if (hog) {
          console.log(
            `the hog was switched on ${hog.switches} times, on for ${(hog.onMs / 1000).toFixed(0)} s`,
          )
          expect(hog.switches).toBeGreaterThan(0)
        }
        const p50 = verdict(s, run.db)
        const ratio = await truth(run)
        console.log(
          `  p50 slow/fast ${(1 + p50.change!).toFixed(3)}× (95 % CI ${(1 + p50.ci![0]).toFixed(3)}–${(1 + p50.ci![1]).toFixed(3)}×), truth from the servers' logs ${ratio.toFixed(3)}×; ${s.rounds.stop}; ${s.rounds.noise ?? 'no round disturbed'}`,
        )
        expect(p50).toMatchObject({ verdict: 'higher', better: 'baseline' })
        expect(1 + p50.ci![0]).toBeLessThanOrEqual(ratio)
        expect(1 + p50.ci![1]).toBeGreaterThanOrEqual(ratio)
        // The noise was measured in every round, and the process monitors' CPU is the targets' own.
        expect(s.results.every((r) => r.noise !== null && r.noise !== undefined)).toBe(true)
        expect(s.results.some((r) => r.noise!.targetCpuPercent !== null)).toBe(true)
      },
      600_000,
    )
  }
})
