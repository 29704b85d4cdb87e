// compose up's second try when Docker still held a port for the container being replaced
// (templates.docker.test.ts met it recreating java-tomcat with TLS on: "Bind for 127.0.0.1:45031
// failed: port is already allocated").
import { describe, expect, it } from 'vitest'
import type { CommandResult } from '../command.ts'
import { retryPortRace } from './compose-project.ts'

const ok: CommandResult = { code: 0, lines: ['Creating app_1 ... done'], timedOut: false }
const raced: CommandResult = {
  code: 1,
  lines: [
    'Recreating cannonade-java-tomcat-5600de_app_1 ... error',
    'ERROR: for app  Cannot start service app: driver failed programming external connectivity on endpoint x: Bind for 127.0.0.1:45031 failed: port is already allocated',
  ],
  timedOut: false,
}

/** An `up` answering each result in turn; how often it ran and was said to retry. */
function ups(...results: CommandResult[]) {
  const calls = { up: 0, retried: 0 }
  return {
    calls,
    up: () => Promise.resolve(results[calls.up++]!),
    onRetry: () => void calls.retried++,
  }
}

describe('compose up when Docker has not yet freed a port', () => {
  it('tries once more after the pause, and says so', async () => {
    const u = ups(raced, ok)
    const started = Date.now()
    expect(await retryPortRace(u.up, u.onRetry, 50)).toBe(ok)
    expect(u.calls).toEqual({ up: 2, retried: 1 })
    expect(Date.now() - started).toBeGreaterThanOrEqual(45)
  })

  it('only once: a port still held the second time is the failure reported', async () => {
    const u = ups(raced, raced, ok)
    expect(await retryPortRace(u.up, u.onRetry, 1)).toBe(raced)
    expect(u.calls).toEqual({ up: 2, retried: 1 })
  })

  it('never for a success, another failure or a time-out', async () => {
    const other: CommandResult = { code: 1, lines: ['no such image'], timedOut: false }
    const late: CommandResult = { ...raced, timedOut: true }
    for (const first of [ok, other, late]) {
      const u = ups(first, ok)
      expect(await retryPortRace(u.up, u.onRetry, 1)).toBe(first)
      expect(u.calls).toEqual({ up: 1, retried: 0 })
    }
  })
})
