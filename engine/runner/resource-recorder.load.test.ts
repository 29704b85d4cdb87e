// Resources on the run's timeline: a process monitor on the target's port and the generator itself.
import { afterEach, describe, expect, it } from 'vitest'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import { runConfig } from '../testing/run-config.ts'

let target: CountingTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

describe('resource samples', () => {
  it('stores the target process and the generator at least once per second on the run timeline', async () => {
    target = await startTarget()
    const logs: string[] = []
    const { summary, db } = await runConfig(
      {
        version: 1,
        name: 'monitored',
        targets: [{ name: 't', url: `${target.url}/x`, monitor: { kind: 'process', port: target.port } }],
        load: { connections: 2, duration: 3 },
        cooldownSeconds: 0,
      },
      undefined,
      { onLog: (_l, m) => logs.push(m) },
    )
    expect(logs).toEqual([])
    const rows = db
      .prepare(
        'SELECT t, target, source, cpu_percent, memory_bytes FROM resource_samples WHERE run_id = ? ORDER BY t',
      )
      .all(summary.runId) as {
      t: number
      target: string
      source: string
      cpu_percent: number | null
      memory_bytes: number | null
    }[]
    const proc = rows.filter((r) => r.source === 'process' && r.target === 't' && r.t >= 0 && r.t < 3)
    const gen = rows.filter((r) => r.source === 'generator')
    expect(proc.length).toBeGreaterThanOrEqual(2)
    expect(new Set(proc.map((r) => Math.floor(r.t))).size).toBeGreaterThanOrEqual(2)
    expect(proc.every((r) => (r.memory_bytes ?? 0) > 0)).toBe(true)
    expect(proc.some((r) => (r.cpu_percent ?? 0) > 1)).toBe(true) // the target served thousands of requests
    expect(gen.length).toBe(3)
    expect(
      gen.every((r) => r.cpu_percent !== null && r.cpu_percent > 0 && (r.memory_bytes ?? 0) > 10_000_000),
    ).toBe(true)
  })

  it('a monitor that cannot find its target warns and the run goes on', async () => {
    target = await startTarget()
    const logs: string[] = []
    const { summary } = await runConfig(
      {
        version: 1,
        name: 'bad monitor',
        targets: [{ name: 't', url: `${target.url}/x`, monitor: { kind: 'process', pid: 999_999_999 } }],
        load: { connections: 1, duration: 1 },
        cooldownSeconds: 0,
      },
      undefined,
      { onLog: (_l, m) => logs.push(m) },
    )
    expect(summary.status).toBe('done')
    expect(logs.join('\n')).toMatch(/targets\.0\.monitor \(t\)/)
  })
})
