// The engine's local capabilities (what the CLI may do beyond the Api): a killed runner still
// ends its run once, the runner's log lines reach the client, and exports land where asked.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunEndedEvent } from '../api/types.ts'
import { createEngine, type EngineHost } from './index.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import type { RunLogEvent } from './local-capabilities.ts'

let dir = ''
let target: CountingTarget
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cannonade-local-'))
  target = await startTarget()
})
afterAll(async () => {
  await target.close()
  rmSync(dir, { recursive: true, force: true })
})

const config = (duration: number) => ({
  version: 1,
  name: 'local capabilities',
  targets: [{ name: 'local', url: `${target.url}/x` }],
  load: { connections: 2, duration },
  cooldownSeconds: 0,
})

/** Start a run on `host` and resolve with its end event. */
async function started(host: EngineHost, raw: unknown) {
  let ended: (e: RunEndedEvent) => void = () => {}
  const end = new Promise<RunEndedEvent>((resolve) => (ended = resolve))
  const off = host.runs.onEnded((e) => ended(e))
  const { runId } = await host.runs.start(raw)
  return { runId, end: end.finally(off) }
}

describe('engine host, local capabilities', () => {
  it('kill ends the run once, aborted, with the samples written before it', async () => {
    const host = await createEngine({ dbPath: join(dir, 'kill.db') })
    try {
      const firstSecond = new Promise<void>((resolve) => {
        const off = host.runs.onProgress(() => (off(), resolve()))
      })
      const ends: RunEndedEvent[] = []
      const offEnds = host.runs.onEnded((e) => ends.push(e))
      const run = await started(host, config(30))
      await firstSecond
      host.local.kill(run.runId)
      const end = await run.end
      offEnds()
      expect(end).toMatchObject({ runId: run.runId, status: 'aborted' })
      expect(end.error).toMatch(/runner process ended unexpectedly \(signal SIGKILL\)/)
      expect(ends).toHaveLength(1)
      expect(await host.runs.active()).toEqual([])
      const summary = await host.runs.get(run.runId)
      expect(summary.status).toBe('aborted')
      expect(summary.results[0]!.requests).toBeGreaterThan(0)
    } finally {
      await host.close()
    }
  })

  it("passes the runner's log lines on, and writes exports where asked", async () => {
    // A CPU this machine does not have: taskset refuses, the runner says so and runs unpinned.
    const host = await createEngine({ dbPath: join(dir, 'log.db'), cpu: 4096 })
    try {
      const logs: RunLogEvent[] = []
      const off = host.local.onLog((e) => logs.push(e))
      const run = await started(host, config(1))
      expect((await run.end).status).toBe('done')
      off()
      expect(logs).toContainEqual({
        type: 'run-log',
        level: 'warn',
        message: 'could not pin the runner to CPU 4096 (is taskset installed?)',
      })
      // The same file the Api's export writes into the data folder, at the path given instead.
      const out = join(dir, 'samples.csv')
      const local = await host.local.exportCsv(run.runId, { kind: 'samples', out })
      const api = await host.exports.csv(run.runId, { kind: 'samples' })
      expect(local.path).toBe(out)
      expect(api.path).toBe(join(dir, 'exports', `run-${run.runId}-samples.csv`))
      expect(local.rows).toBe(api.rows)
      expect(local.rows).toBeGreaterThan(0)
      expect(readFileSync(out, 'utf8')).toBe(readFileSync(api.path!, 'utf8'))
    } finally {
      await host.close()
    }
  })
})
