// The main process's side of the engine's utility process, on the Electron stand-in's
// utilityProcess (a real Node child, e2e/support/electron-standin/utility.ts) running a scripted
// engine: calls are answered by sequence number, secrets are handed over at every (re)start, and a
// crash fails the pending call and ends the runs that were going as `failed`, then the engine is
// started again; a stop is no crash.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { EventName } from '../engine/api/channels.ts'
import { startEngineProcess } from './engine-process.ts'

vi.mock('electron', async () => {
  const { utilityProcess } = await import('../e2e/support/electron-standin/utility.ts')
  return { utilityProcess }
})

// The scripted engine: says which process it is on stdout, answers every call with what it knows
// (its pid, the secrets it was given, the call's arguments); `runs:start` reports run 7 going and
// then dies with exit code 3 without answering; a shutdown ends it with 0.
const ENGINE = `
const port = process.parentPort
let secrets = null
port.on('message', ({ data: msg }) => {
  if (msg.type === 'secrets') secrets = msg.values
  if (msg.type === 'shutdown') process.exit(0)
  if (msg.type !== 'call') return
  if (msg.channel === 'runs:start') {
    process.send({ type: 'event', event: 'runs:progress', payload: { runId: 7 } }, () => process.exit(3))
    return
  }
  if (msg.channel === 'runs:stop') {
    process.send({ type: 'fatal', message: 'the database is gone' })
    return
  }
  port.postMessage({ type: 'result', seq: msg.seq, envelope: { ok: true, result: { pid: process.pid, secrets, args: msg.args } } })
})
process.stdout.write('started ' + process.pid + '\\n')
port.postMessage({ type: 'ready' })
`

const dir = mkdtempSync(join(tmpdir(), 'cannonade-engine-process-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('startEngineProcess', () => {
  it('answers calls, fails the pending call and the going runs on a crash, restarts, and stops without a restart', async () => {
    const entry = join(dir, 'engine.cjs')
    writeFileSync(entry, ENGINE)
    const events: { event: EventName; payload: unknown }[] = []
    const logs: string[] = []
    // Each "started PID" line the engine prints, as it arrives.
    const started: number[] = []
    let onStarted: () => void = () => {}
    let secret = 'first'
    const engine = startEngineProcess({
      entry,
      dbPath: join(dir, 'cannonade.db'),
      onEvent: (event, payload) => events.push({ event, payload }),
      log: (line) => logs.push(line),
      output: (stream) => (chunk) => {
        if (stream !== 'stdout') return
        for (const m of String(chunk).matchAll(/started (\d+)/g)) started.push(Number(m[1]))
        onStarted()
      },
      env: { PATH: process.env.PATH ?? '' },
      secrets: () => ({ PGPASSWORD: secret }),
    })
    const startedCount = (n: number) =>
      new Promise<void>((resolve) => {
        onStarted = () => started.length >= n && resolve()
        onStarted()
      })

    const first = await engine.call('runs:list', [{ limit: 2 }])
    expect(first).toEqual({
      ok: true,
      result: { pid: started[0], secrets: { PGPASSWORD: 'first' }, args: [{ limit: 2 }] },
    })

    // Told by message, logged by main: not a crash.
    const fatal = engine.call('runs:stop', [1])
    await vi.waitUntil(() => logs.includes('engine: the database is gone'))

    secret = 'second'
    const crashed = await engine.call('runs:start', [])
    expect(crashed).toEqual({
      ok: false,
      error: { code: 'unavailable', message: 'the engine process exited (code 3)' },
    })
    expect(await fatal).toEqual(crashed)
    expect(events).toEqual([
      { event: 'runs:progress', payload: { runId: 7 } },
      {
        event: 'runs:ended',
        payload: {
          type: 'ended',
          runId: 7,
          status: 'failed',
          error: 'the engine process exited (code 3) during the run',
        },
      },
    ])
    expect(logs).toContain('the engine process exited (code 3); restarting in 500 ms')

    await startedCount(2)
    const again = await engine.call('runs:list', [])
    expect(again).toMatchObject({ ok: true, result: { pid: started[1], secrets: { PGPASSWORD: 'second' } } })
    expect(started[1]).not.toBe(started[0])

    await engine.stop()
    expect(logs.filter((l) => l.includes('restarting'))).toHaveLength(1)
    expect(await engine.call('runs:list', [])).toEqual({
      ok: false,
      error: { code: 'unavailable', message: 'the engine is restarting; try again in a moment' },
    })
  })
})
