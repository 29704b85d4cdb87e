// `cannonade run` as a client of the engine: Ctrl-C reaches the run through runs.stop, a sweep is
// the engine's own study (listed by studies.list, its figures from studies.get), and --cpu pins
// every runner the engine starts. The real command in a child process, against local targets.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import { withEngine } from './common.ts'

const BIN = fileURLToPath(new URL('../../bin/cannonade.mjs', import.meta.url))

interface Cli {
  /** Resolves with the first stderr text matching `re`. */
  stderrMatch(re: RegExp): Promise<string>
  signal(sig: NodeJS.Signals): void
  exit: Promise<{ code: number | null; stdout: string; stderr: string }>
}

function cli(args: string[]): Cli {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  const watchers: { re: RegExp; resolve: (s: string) => void }[] = []
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString()
    for (const w of [...watchers]) {
      const m = w.re.exec(stderr)
      if (m) {
        watchers.splice(watchers.indexOf(w), 1)
        w.resolve(m[0])
      }
    }
  })
  // Bounded: a command that never ends is killed and the test fails on its exit code.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
  return {
    stderrMatch: (re) =>
      new Promise((resolve, reject) => {
        const m = re.exec(stderr)
        if (m) return resolve(m[0])
        watchers.push({ re, resolve })
        child.once('exit', () => reject(new Error(`exited before stderr matched ${re}:\n${stderr}`)))
      }),
    signal: (sig) => child.kill(sig),
    exit: new Promise((resolve) =>
      child.once('exit', (code) => {
        clearTimeout(timer)
        resolve({ code, stdout, stderr })
      }),
    ),
  }
}

let dir = ''
let target: CountingTarget
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cannonade-cli-run-'))
  target = await startTarget()
})
afterAll(async () => {
  await target.close()
  rmSync(dir, { recursive: true, force: true })
})

const config = (name: string, url: string, load: Record<string, unknown>, extra = {}) =>
  JSON.stringify({ version: 1, name, targets: [{ name: 'local', url }], load, cooldownSeconds: 0, ...extra })

describe('cannonade run through the engine', () => {
  it('Ctrl-C stops the run through the engine: it ends aborted with its samples kept, exit 1', async () => {
    // A target that says when the load has reached it, so the stop lands mid-run.
    let reached: () => void = () => {}
    const firstRequest = new Promise<void>((resolve) => (reached = resolve))
    const server = http.createServer((req, res) => {
      reached()
      req.resume()
      res.end('ok')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`
    try {
      const cfg = join(dir, 'long.json')
      writeFileSync(cfg, config('stopped by ctrl-c', url, { connections: 2, duration: 30 }))
      const db = join(dir, 'stop.db')
      const run = cli(['run', cfg, '--db', db])
      await run.stderrMatch(/^run "stopped by ctrl-c": local · database /m)
      await firstRequest
      run.signal('SIGINT')
      const r = await run.exit
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('stopping: finishing the current second and keeping every sample')
      const id = Number(/run (\d+) aborted: stopped before the end of its window/.exec(r.stderr)?.[1])
      expect(id).toBeGreaterThan(0)
      expect(r.stdout).toMatch(new RegExp(`run ${id} "stopped by ctrl-c": aborted`))
      const run1 = await withEngine(db, (host) => host.runs.get(id))
      expect(run1.status).toBe('aborted')
      expect(run1.results[0]!.requests).toBeGreaterThan(0)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it("a sweep is the engine's study, each runner pinned by --cpu", async () => {
    const cfg = join(dir, 'sweep.json')
    writeFileSync(
      cfg,
      config(
        'sweep via engine',
        `${target.url}/x`,
        { connections: 1, duration: 1 },
        { sweep: { path: 'load.connections', values: [1, 2] } },
      ),
    )
    const db = join(dir, 'sweep.db')
    const out = join(dir, 'sweep-summary.json')
    const r = await cli(['run', cfg, '--db', db, '--json', out, '--cpu', '0']).exit
    expect(r.code, r.stderr).toBe(0)
    const steps = [...r.stderr.matchAll(/^connections = (\d+): run (\d+)$/gm)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ])
    expect(steps.map(([value]) => value)).toEqual([1, 2])
    expect(r.stderr).not.toMatch(/could not pin/)
    const json = JSON.parse(readFileSync(out, 'utf8')) as {
      studyId: number
      runs: { point: number[]; runId: number; status: string }[]
      results: { targets: { target: string; points: { value: number; runId: number }[] }[] }
    }
    expect(json.runs.map((x) => [x.point[0], x.runId])).toEqual(steps)
    expect(json.runs.every((x) => x.status === 'done')).toBe(true)
    expect(r.stdout).toContain(`study ${json.studyId}: load.connections over 1, 2`)
    await withEngine(db, async (host) => {
      // The study the engine recorded, and the same figures it gives any client.
      const study = (await host.studies.list()).find((s) => s.studyId === json.studyId)
      expect(study?.runIds.sort()).toEqual(steps.map(([, id]) => id).sort())
      expect(await host.studies.get(json.studyId)).toEqual(json.results)
      // Each runner was started pinned: the run's environment records the CPU.
      const exported = join(dir, 'sweep-runs.json')
      await host.local.exportJson(
        steps.map(([, id]) => id!),
        exported,
      )
      const doc = JSON.parse(readFileSync(exported, 'utf8')) as {
        runs: { environment: { details: { generatorCpu?: number } } }[]
      }
      expect(doc.runs.map((x) => x.environment.details.generatorCpu)).toEqual([0, 0])
    })
    // The study as one CSV: a row per value (and target).
    const csv = join(dir, 'study.csv')
    const e = await cli(['export', 'csv', '--study', String(json.studyId), '--out', csv, '--db', db]).exit
    expect(e.code, e.stderr).toBe(0)
    expect(e.stdout).toContain(`wrote study ${json.studyId} (2 rows`)
    const lines = readFileSync(csv, 'utf8').trimEnd().split('\n')
    expect(lines.slice(1).map((l) => l.split(',').slice(3, 4)[0])).toEqual(['1', '2'])
    const both = await cli(['export', 'csv', '--study', '1', '--series', '--out', csv, '--db', db]).exit
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('--study and --series do not go together')
  })
})
