// What is computed is shown: a scenario with named phases against a target whose Server-Timing
// the test sets (app 1.5 ms, db 0.25 ms) and which answers every 7th request with a 503. The
// CLI's `runs show` and the report print per-step and per-phase rows (each phase with its own
// wall time), the standard deviation, the target's app and database time beside the client's
// latency, the errors over time, and name the scenario by its steps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunSummary } from './api/types.ts'
import { runsCommand } from './cli/runs.ts'
import { createEngine, type EngineHost } from './host/index.ts'
import { figuresOf } from './metrics/figures.ts'
import { errorsText } from './metrics/units.ts'
import { buildReportHtml } from './report/html.ts'
import { fmtInt, fmtMs, fmtSeconds } from './report/format.ts'
import { openDb } from './db/db.ts'
import { HistoryStore } from './store/history-store.ts'
import { runToEnd, tempDbPath } from './testing/run-config.ts'
import { startTarget, type CountingTarget } from './testing/target.ts'

let host: EngineHost
let target: CountingTarget
let run: RunSummary

beforeAll(async () => {
  host = await createEngine({ dbPath: tempDbPath() })
  target = await startTarget({ delayMs: 2, serverTiming: true, failEvery: { every: 7, status: 503 } })
  const { runId, ended } = await runToEnd(host, {
    version: 1,
    name: 'shown',
    targets: [
      {
        name: 'shop',
        url: target.url,
        steps: [
          { name: 'login', method: 'POST', path: '/login', body: '{}' },
          { name: 'browse', path: '/ads' },
        ],
      },
    ],
    load: {
      connections: 2,
      profile: {
        kind: 'phases',
        phases: [
          { name: 'warmup', share: 0.5, duration: 1 },
          { name: 'peak', share: 1, duration: 2 },
        ],
      },
    },
    cooldownSeconds: 0,
  })
  expect(ended.status).toBe('done')
  run = await host.runs.get(runId)
})

afterAll(async () => {
  await host?.close()
  await target?.close()
})

async function runsShow(id: number): Promise<string> {
  const out: string[] = []
  const sink = { write: (s: string) => (out.push(s), true) } as unknown as NodeJS.WritableStream
  const code = await runsCommand(['show', String(id)], {
    dbPath: host.dbPath,
    stdout: sink,
    stderr: sink,
    isTTY: false,
  })
  expect(code, out.join('')).toBe(0)
  return out.join('')
}

describe('what is computed is shown', () => {
  it('is computed: steps, phases with their wall time, std dev, Server-Timing as the target sent it', () => {
    const r = run.results[0]!
    expect(r.steps?.map((s) => s.step)).toEqual(['login', 'browse'])
    expect(r.phases.map((p) => [p.phase, Math.round(p.seconds)])).toEqual([
      ['warmup', 1],
      ['peak', 2],
    ])
    expect(r.latency.stddev).toBeGreaterThan(0)
    expect(r.serverApp).toMatchObject({ p50: 1500, p99: 1500 })
    expect(r.serverDb).toMatchObject({ p50: 250, p99: 250 })
    // A scenario's 503 ends its pass: counted as a failed step ('capture').
    expect(figuresOf(r).failed).toBeGreaterThan(0)
  })

  it('the CLI prints them beside the target', async () => {
    const r = run.results[0]!
    const text = await runsShow(run.runId)
    const row = (label: string) =>
      text
        .split('\n')
        .find((l) => l.startsWith(label))
        ?.slice(label.length)
        .trim()
        .split(/\s+/)
    // Sub-rows have no round: TIME REQUESTS REQ/S …
    for (const st of r.steps!) expect(row(`  ↳ step ${st.step}`)?.[1]).toBe(String(st.requests))
    for (const p of r.phases) expect(row(`  ↳ phase ${p.phase}`)?.[0]).toBe(p.seconds.toFixed(1))
    // app and db: how many responses carried the header, then mean, SD, p50…: 1.50 and 0.25 ms.
    expect(row('  ↳ app time (Server-Timing)')?.slice(0, 4)).toEqual([
      String(r.serverApp!.count),
      '1.50',
      '0.00',
      '1.50',
    ])
    expect(row('  ↳ db time (Server-Timing)')?.slice(0, 4)).toEqual([
      String(r.serverDb!.count),
      '0.25',
      '0.00',
      '0.25',
    ])
    // ROUND TIME REQUESTS REQ/S MEAN SD: ms of the whole µs, as every screen rounds a latency
    // (514.6 µs is 515 µs, 0.52 ms, as the --json summary's 515 reads).
    expect(row('shop')?.[5]).toBe((Math.round(Math.round(r.latency.stddev) / 10) / 100).toFixed(2))
    expect(text).toContain(`errors shop #1: ${errorsText(figuresOf(r).errors)}`)
  })

  it('the report prints them too, and names the scenario by its steps', () => {
    const r = run.results[0]!
    const db = openDb(host.dbPath)
    const html = buildReportHtml(new HistoryStore(db), [run.runId])
    db.close()
    expect(html).toContain('scenario of 2 steps: login <span class="url">POST /login</span> → browse')
    expect(html).not.toContain(`GET <span class="url">${target.url}`)
    const table = (title: string) =>
      html.slice(html.indexOf(title), html.indexOf('</table>', html.indexOf(title)))
    const steps = table('<h3>Per scenario step</h3>')
    for (const st of r.steps!) expect(steps).toContain(`1 · ${st.step}</td>`)
    for (const st of r.steps!) expect(steps).toContain(`<td class="num">${fmtInt(st.requests)}</td>`)
    const phases = table('<h3>Per phase</h3>')
    for (const p of r.phases)
      expect(phases).toContain(`1 · ${p.phase}</td><td class="num">${fmtSeconds(p.seconds)}</td>`)
    const timing = table('Where the time went')
    expect(timing).toContain(`<td class="num">${fmtMs(1500)}</td>`)
    expect(timing).toContain(`<td class="num">${fmtMs(250)}</td>`)
    expect(html).toContain('<th class="num">std dev</th>')
    expect(html).toContain(`<td class="num">${fmtMs(r.latency.stddev)}</td>`)
    expect(html).toContain('Errors over time, by kind')
  })
})
