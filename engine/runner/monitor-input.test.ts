// What a monitor reports is checked where it enters the run (issue 29, items 5, 7 and 9), the same
// for every kind: a Prometheus stand-in answers the real monitor with hostile series beside a good
// one (memory of 1e300, NaN and far-off timestamps, a 1 MB label, control characters, 400
// series), while a process monitor watches the target. The run stores only values in range,
// bounded names and a bounded number of instances, says what it left out as warnings, and the
// other monitor and the generator lose nothing. A monitor that answers only after the run ended
// is a warning of the run, not an error of the command, and samples nothing afterwards.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SAMPLE_BOUNDS } from '../monitor/bounds.ts'
import { openDb } from '../db/db.ts'
import { runCommand } from '../testing/cli.ts'
import { promMatrix, promRange, startHostile, type HostileServer } from '../testing/hostile-http.ts'
import { runConfig } from '../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'

let target: CountingTarget | null = null
let prom: HostileServer | null = null
afterEach(async () => {
  await target?.close()
  await prom?.close()
  target = prom = null
})

const grid = (body: string): number[] => {
  const { start, end, step } = promRange({ method: 'POST', path: '', headers: {}, body })
  const out: number[] = []
  for (let t = start; t <= end && out.length < 10_000; t += step) out.push(t)
  return out
}

/** Every query's answer: one good series, the hostile ones, and 400 more series. */
function hostileMatrix(body: string): object {
  const ts = grid(body)
  const at = (v: string) => ts.map((t): [unknown, unknown] => [t, v])
  return promMatrix([
    { metric: { instance: 'good' }, values: at('7') },
    { metric: { instance: 'huge' }, values: at('1e300') },
    { metric: { instance: 'negative' }, values: at('-5e20') },
    { metric: { instance: 'nan-time' }, values: [['NaN', '1']] },
    {
      metric: { instance: 'far' },
      values: [
        [1e300, '1'],
        [-1e12, '1'],
        ['1e400', '1'],
      ],
    },
    { metric: { instance: 'x'.repeat(1 << 20) }, values: at('1') },
    { metric: { instance: 'ctl\u001b[2J\r\nX-Injected: 1' }, values: at('1') },
    ...Array.from({ length: 400 }, (_, i) => ({ metric: { instance: `pod-${i}` }, values: at('1') })),
  ])
}

describe('monitor values checked where they enter the run', () => {
  it('hostile series: only bounded values, names and instances are stored; the other monitor and the generator lose nothing', async () => {
    target = await startTarget()
    prom = await startHostile((r) => ({ body: hostileMatrix(r.body) }))
    const { summary, db } = await runConfig({
      version: 1,
      name: 'hostile monitor',
      targets: [
        {
          name: 't',
          url: `${target.url}/x`,
          monitor: [
            { kind: 'prometheus', url: prom.url, preset: 'nodejs' },
            { kind: 'process', port: target.port },
          ],
        },
      ],
      load: { connections: 2, duration: 3 },
      cooldownSeconds: 0,
    })
    expect(summary.status).toBe('done')
    type Row = {
      t: number
      source: string
      instance: string
      memory_bytes: number | null
      value: number | null
    }
    const rows = db.prepare('SELECT * FROM resource_samples WHERE run_id = ?').all(summary.runId) as Row[]
    const promRows = rows.filter((r) => r.source === 'prometheus')
    // The good series is there, with its value; the hostile values are no readings.
    expect(promRows.some((r) => r.instance === 'good' && r.memory_bytes === 7)).toBe(true)
    expect(promRows.filter((r) => r.instance === 'huge').every((r) => r.memory_bytes === null)).toBe(true)
    expect(promRows.filter((r) => r.instance === 'negative').every((r) => r.memory_bytes === null)).toBe(true)
    for (const r of rows) {
      expect(Number.isFinite(r.t) && r.t > -120 && r.t < 120).toBe(true)
      expect(r.instance.length).toBeLessThanOrEqual(SAMPLE_BOUNDS.text)
      expect([...r.instance].some((c) => c.charCodeAt(0) < 0x20)).toBe(false)
    }
    expect(promRows.map((r) => r.instance)).toContain('ctl?[2J??X-Injected: 1')
    expect(new Set(promRows.map((r) => r.instance)).size).toBeLessThanOrEqual(SAMPLE_BOUNDS.instances)
    expect(promRows.some((r) => r.instance === 'nan-time' || r.instance === 'far')).toBe(false)
    // Nothing else was lost: the process monitor's samples go on after the first hostile value
    // (once, every later sample of the run was dropped there), and the generator's are all there.
    const firstHostile = Math.min(...promRows.filter((r) => r.instance === 'huge').map((r) => r.t))
    expect(Number.isFinite(firstHostile)).toBe(true)
    expect(rows.some((r) => r.source === 'process' && r.t > firstHostile)).toBe(true)
    expect(rows.filter((r) => r.source === 'generator').length).toBe(3)
    const warnings = db
      .prepare('SELECT message FROM run_warnings WHERE run_id = ?')
      .pluck()
      .all(summary.runId) as string[]
    expect(warnings).toEqual(
      expect.arrayContaining([
        'memoryBytes values that were not numbers from 0 to 9007199254740991 were left out (no reading)',
        'samples stamped outside the run (a time that is no number, or far from now) were left out',
        'instances with control characters or over 200 characters were shortened',
        `more than ${SAMPLE_BOUNDS.instances} instances (series, pods, containers or states): the others were left out`,
      ]),
    )
    expect(warnings.join('\n')).not.toMatch(/cannot store|could not be stored|refused by the database/)
  }, 180_000)

  it('a monitor that answers only after the run ended: the command exits 0, the run says so, nothing samples afterwards', async () => {
    target = await startTarget()
    let first = true
    // The first answer comes when the command has returned (after the 1 s run); later ones at once.
    let release: () => void = () => {}
    const ended = new Promise<void>((r) => (release = r))
    prom = await startHostile((r) => {
      const late = first
      first = false
      const ts = grid(r.body)
      return {
        body: promMatrix([{ metric: { job: 'x' }, values: ts.map((t) => [t, '1']) }]),
        ...(late ? { after: ended } : {}),
      }
    })
    const held = prom
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-late-monitor-'))
    const config = join(dir, 'late.yaml')
    writeFileSync(
      config,
      `version: 1\nname: late\ntargets:\n  - name: t\n    url: ${target.url}/x\n    monitor: { kind: prometheus, url: '${prom.url}', query: up }\nload: { connections: 1, duration: 1 }\ncooldownSeconds: 0\n`,
    )
    const dbPath = join(dir, 'c.db')
    const r = await runCommand(dbPath, ['run', config, '--quiet'])
    expect(r.err).not.toMatch(/database connection is not open/)
    expect(r.code).toBe(0)
    const db = openDb(dbPath)
    const warning = db.prepare('SELECT message, stopped FROM run_warnings').all() as {
      message: string
      stopped: number
    }[]
    expect(warning).toEqual([{ message: 'it had not answered when the run ended', stopped: 1 }])
    // The monitor's late answer (the stand-in answers a second request at once) starts no loop.
    release()
    await new Promise((res) => setTimeout(res, 1500))
    const settled = held.received.length
    await new Promise((res) => setTimeout(res, 2000))
    expect(held.received.length).toBe(settled)
    expect(
      db.prepare("SELECT count(*) FROM resource_samples WHERE source = 'prometheus'").pluck().get(),
    ).toBe(0)
    db.close()
  }, 180_000)
})
