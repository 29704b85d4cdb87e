// The conformance suite's shared steps (issue 18): a short run of the load client against a raw
// target, and the checks that what Cannonade reports agrees with the server's own counts: every
// response the server wrote is a success (or still in flight when the window closed), no timeouts
// that did not happen, and the right error kinds. Where wrk is installed, it runs against the same
// target as a reference. The suites, in engine/runner/conformance/ beside their raw targets
// (targets.ts): connections.load.test.ts (connections the server ends) and
// framing.load.test.ts (how responses are framed and split); docs/http-conformance.md is the table.
import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { expect } from 'vitest'
import type { TargetRoundSummary } from '../api/types.ts'
import { runConfig, type TestRun } from './run-config.ts'
import type { ConformanceTarget } from '../runner/conformance/targets.ts'

/** A 1 s run on 2 connections of GET `url`/x (`load` overrides), and its one target round. */
export async function run(
  url: string,
  load: Record<string, unknown> = {},
  method = 'GET',
): Promise<{ r: TargetRoundSummary; run: TestRun }> {
  const result = await runConfig({
    version: 1,
    name: 'conformance',
    targets: [{ name: 't', url: `${url}/x`, method }],
    load: { connections: 2, duration: 1, timeoutMs: 5_000, ...load },
    cooldownSeconds: 0,
  })
  return { r: result.summary.results[0]!, run: result }
}

export const errorsBut = (r: TargetRoundSummary, ...allowed: string[]) =>
  Object.fromEntries(
    Object.entries(r.errors).filter(([k, n]) => k !== 'inflight' && !allowed.includes(k) && n),
  )

/** Every response the server wrote whole was a success or was in flight when the window closed. */
export function expectAnswered(r: TargetRoundSummary, t: ConformanceTarget, counted = r.ok): void {
  expect(counted).toBeGreaterThan(0)
  expect(counted).toBeLessThanOrEqual(t.answered)
  expect(t.answered).toBeLessThanOrEqual(counted + (r.errors.inflight ?? 0))
}

export const hasWrk = spawnSync('wrk', ['--version']).error === undefined

/** wrk's -c: at the end of its window up to this many requests are answered but not counted by wrk. */
const WRK_CONNECTIONS = 2

/** wrk's count against the server's: equal, but for the requests in flight when wrk stopped. */
export function expectWrkCount(counted: number, answered: number): void {
  expect(counted).toBeGreaterThan(0)
  expect(counted).toBeLessThanOrEqual(answered)
  expect(answered - counted).toBeLessThanOrEqual(WRK_CONNECTIONS)
}

/**
 * wrk's count of responses (and of errors) on `t`, for 1 s on 2 connections. Not a synchronous child:
 * a raw target answers from this process, whose event loop must go on meanwhile (with execFileSync
 * wrk counted 0 requests, which the count checks let pass).
 */
export async function wrk(t: ConformanceTarget | { url: string; zero(): void }): Promise<{
  requests: number
  errors: boolean
}> {
  t.zero()
  const args = ['-t1', `-c${WRK_CONNECTIONS}`, '-d1s', '--timeout', '5s', `${t.url}/x`]
  const { stdout: out } = await promisify(execFile)('wrk', args, { encoding: 'utf8', timeout: 15_000 })
  return {
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? -1),
    errors: /Socket errors|Non-2xx/.test(out),
  }
}
