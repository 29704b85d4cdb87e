// `npm run bench`, load agents (engine/agents/): what scale-out buys and what merging costs.
// - throughput: N local agents against one agent against a plain run, nginx on its own core and
//   each generator on its own; and the agent path's cost as the generator core's CPU per request
//   (the runner, plus the agent process while its runner ran), one agent against a plain run. N agents need N + 1 cores; where the machine has fewer, that part is
//   skipped with the reason (the plain run against one agent still runs: the agent path's cost).
// - merge: what the coordinator spends merging encoded seconds and segments of k agents, and the
//   bytes an agent sends per second.
// Environment: BENCH_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_AGENTS (2).
import { availableParallelism } from 'node:os'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { launchRun } from '../engine/agents/launch-run.ts'
import { mergeSecond, mergeSegment } from '../engine/agents/merge/merge.ts'
import type { AgentSecondRow, AgentSegmentRow } from '../engine/agents/coordination/protocol.ts'
import type { TargetRoundSummary } from '../engine/api/types.ts'
import { parseRunConfig } from '../engine/config/load.ts'
import { StatsAccumulator } from '../engine/metrics/accumulate.ts'
import { encodeStats, sumStats } from '../engine/metrics/encoded.ts'
import { initHdr } from '../engine/metrics/hdr.ts'
import { openDb } from '../engine/db/db.ts'
import { startNginx } from './nginx.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const AGENTS = Number(process.env.BENCH_AGENTS ?? 2)
const dir = mkdtempSync(join(tmpdir(), 'cannonade-bench-agents-'))
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** A process's user + system CPU so far, ms (/proc/PID/stat, clock ticks of 10 ms); null once it is gone. */
function cpuMs(pid: number): number | null {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(f[11]) + Number(f[12])) * 10
  } catch {
    return null
  }
}

/** Pids whose command line contains `part` (NUL-separated arguments). */
function pidsOf(part: string): number[] {
  const found: number[] = []
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(part)) found.push(Number(d))
    } catch {
      /* gone */
    }
  }
  return found
}

/**
 * The generator core's CPU during a run, read every 100 ms: the runner process's (load thread and
 * ledger writer), and an agent process's own while its runner ran (its start before the load and
 * its raw upload after it are not the load's cost). A lower bound by at most 100 ms of each.
 */
function watchGenerator(): { stop(): { runnerMs: number; agentMs: number } } {
  const worker = join(ROOT, 'engine', 'runner', 'worker.ts')
  const runners = new Map<number, number>()
  const agentAtStart = new Map<number, number>()
  const agentAtEnd = new Map<number, number>()
  const timer = setInterval(() => {
    const live = pidsOf(worker)
    for (const pid of live) runners.set(pid, cpuMs(pid) ?? runners.get(pid) ?? 0)
    if (live.length === 0) return
    for (const pid of pidsOf('cannonade.mjs\0agent')) {
      const ms = cpuMs(pid)
      if (ms === null) continue
      if (!agentAtStart.has(pid)) agentAtStart.set(pid, ms)
      agentAtEnd.set(pid, ms)
    }
  }, 100)
  return {
    stop() {
      clearInterval(timer)
      const sum = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0)
      return { runnerMs: sum(runners), agentMs: sum(agentAtEnd) - sum(agentAtStart) }
    },
  }
}

interface Measured {
  rps: number
  /** The generator core's CPU per completed request, µs: runner, plus the agent process while its runner ran. */
  cpuUs: number
  agentUs: number
}

/** One run: plain (no agents) or `agents` local agents from CPU `cpu`. */
async function throughput(url: string, agents: number | null, cpu: number): Promise<Measured> {
  const dbPath = join(dir, `run-${Date.now()}.db`)
  const db = openDb(dbPath)
  const config = parseRunConfig({
    version: 1,
    name: 'bench agents',
    targets: [{ name: 'nginx', url }],
    load: { connections: CONNECTIONS, duration: SECONDS },
    cooldownSeconds: 0,
    ...(agents !== null ? { agents: { count: agents } } : {}),
  })
  const watch = watchGenerator()
  const summary = await (await launchRun(db, dbPath, config, {}, { cpu })).done
  const { runnerMs, agentMs } = watch.stop()
  db.close()
  if (summary.status !== 'done') throw new Error(`bench run ${summary.status}: ${summary.error ?? ''}`)
  const r = summary.results[0]!
  return {
    rps: r.latency.count / r.seconds,
    cpuUs: ((runnerMs + agentMs) * 1000) / r.requests,
    agentUs: (agentMs * 1000) / r.requests,
  }
}

async function scaleOut(): Promise<void> {
  const cores = availableParallelism()
  console.log(`cores: ${cores}`)
  // Generators on CPU 0 (…N−1), nginx on the next free one.
  const nginx = await startNginx(dir, Math.min(AGENTS, cores - 1))
  try {
    // Alternated three times, medians: a shared machine's load moves between runs.
    const plains: Measured[] = []
    const ones: Measured[] = []
    for (let i = 0; i < 3; i++) {
      plains.push(await throughput(nginx.url, null, 0))
      ones.push(await throughput(nginx.url, 1, 0))
    }
    const plain = median(plains.map((m) => m.rps))
    const one = median(ones.map((m) => m.rps))
    console.log(
      `one generator on CPU 0, nginx on CPU ${Math.min(AGENTS, cores - 1)}, ${SECONDS} s each, alternated 3×, medians: plain run ${fmt(plain)} req/s · one agent ${fmt(one)} req/s · ratio ${(one / plain).toFixed(3)} (throughput moves with the machine's load)`,
    )
    // The agent path's cost, as CPU of the generator's core per request: what the load is made of.
    const plainCpu = median(plains.map((m) => m.cpuUs))
    const oneCpu = median(ones.map((m) => m.cpuUs))
    console.log(
      `  generator CPU per request, medians: plain run ${plainCpu.toFixed(2)} µs · one agent ${oneCpu.toFixed(2)} µs (its agent process while the load ran: ${median(ones.map((m) => m.agentUs)).toFixed(2)} µs) · the agent path costs ${(((oneCpu - plainCpu) / plainCpu) * 100).toFixed(1)} % (issue 18 item 4: at most 3 %)`,
    )
    if (cores < AGENTS + 1) {
      console.log(
        `${AGENTS} agents against one: skipped, it needs ${AGENTS + 1} cores (${AGENTS} agents and nginx each on their own) and this machine has ${cores}`,
      )
      return
    }
    const many = median([
      (await throughput(nginx.url, AGENTS, 0)).rps,
      (await throughput(nginx.url, AGENTS, 0)).rps,
      (await throughput(nginx.url, AGENTS, 0)).rps,
    ])
    console.log(
      `${AGENTS} agents on CPUs 0–${AGENTS - 1}: ${fmt(many)} req/s · ${(many / one).toFixed(2)}× one agent (ideal ${AGENTS}×, less when nginx saturates its core)`,
    )
  } finally {
    nginx.stop()
  }
}

/** k agents' encoded seconds at `perAgent` requests/s each, with a long-tailed latency. */
function agentSeconds(k: number, seconds: number, perAgent: number): AgentSecondRow[] {
  const rows: AgentSecondRow[] = []
  let x = 1
  for (let t = 0; t < seconds; t++) {
    for (let index = 0; index < k; index++) {
      const acc = new StatsAccumulator()
      for (let i = 0; i < perAgent; i++) {
        x = (x * 1103515245 + 12345) % 2 ** 31
        acc.add(200 + ((x >> 8) % 2000) + (x % 997 === 0 ? 80_000 : 0), -1, 200, 120, 0, -1, -1)
      }
      rows.push({
        index,
        second: { segment: 0, t, phase: 0, connections: 10, generatorCpu: 50, stats: encodeStats(acc) },
      })
      acc.destroy()
    }
  }
  return rows
}

async function mergeCost(): Promise<void> {
  await initHdr()
  const seg = { index: 0, targetIndex: 0, target: 't', round: 1 }
  for (const k of [2, 8, 32]) {
    const seconds = 60
    const rows = agentSeconds(k, seconds, Math.round(60_000 / k))
    const bytes = rows.reduce((n, r) => n + JSON.stringify(r.second).length, 0) / rows.length
    const byT = new Map<number, AgentSecondRow[]>()
    for (const r of rows) byT.set(r.second.t, [...(byT.get(r.second.t) ?? []), r])
    let started = performance.now()
    for (const list of byT.values()) mergeSecond(seg, ['main'], list)
    const perSecond = (performance.now() - started) / seconds
    // A segment from k agents' totals (each the sum of its seconds, as an agent sends it).
    const totals: AgentSegmentRow[] = Array.from({ length: k }, (_, index) => {
      const acc = sumStats(
        rows.filter((r) => r.index === index).map((r) => ({ stats: r.second.stats, who: 'bench' })),
      )
      const total = encodeStats(acc)
      acc.destroy()
      return {
        index,
        segment: { segment: 0, seconds, phaseSeconds: [seconds], total, phases: [total], steps: null },
        summary: {} as TargetRoundSummary, // the agent's own figures: not read by the merge
      }
    })
    started = performance.now()
    mergeSegment(seg, ['main'], [], totals)
    const perSegment = performance.now() - started
    console.log(
      `merge of ${k} agents (60 000 req/s in all): ${perSecond.toFixed(2)} ms per merged second · ${perSegment.toFixed(2)} ms per segment · ${fmt(bytes)} bytes per agent-second sent`,
    )
  }
}

console.log('\nload agents:')
await scaleOut()
await mergeCost()
