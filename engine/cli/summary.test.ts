// The CLI's connect line names a TLS handshake only where there was one: an https target's
// connections, never a plain http target's (which said "TCP connect and TLS handshake"). The run
// table's notes count the Server-Timing headers that were not durations, when there were any.
import { describe, expect, it } from 'vitest'
import type { TargetRoundSummary } from '../api/types.ts'
import { block } from '../testing/compare-rounds.ts'
import { resultsTable, timingLines, tlsTargets } from './summary.ts'

const round = (target: string): TargetRoundSummary => {
  const b = block(1000)
  return {
    ...b,
    target,
    round: 1,
    phases: [],
    connect: { ...b.latency, count: 2 },
    schedule: null,
    histogram: '',
    correctedHistogram: null,
    serverTimingInvalid: 0,
  }
}

describe('the connect line', () => {
  it('says TLS handshake for https targets only', () => {
    const tls = tlsTargets({
      targets: [
        { name: 'plain', url: 'http://127.0.0.1:8080/' },
        { name: 'secure', url: 'HTTPS://127.0.0.1:8443/' },
      ],
    })
    const [plain, secure] = timingLines([round('plain'), round('secure')], tls)
    expect(plain).toMatch(/^connect plain #1: 2 connections opened in .* \(TCP connect, not in latency\)$/)
    expect(secure).toMatch(/\(TCP connect and TLS handshake, not in latency\)$/)
  })
})

describe('Server-Timing headers that were not durations', () => {
  it('are a note of the run table per target and round, when there were any', () => {
    const table = resultsTable([
      { ...round('api'), serverTimingInvalid: 12 },
      { ...round('web'), serverTimingInvalid: 1 },
      round('quiet'),
    ])
    expect(table).toContain('server-timing api #1: 12 headers were not durations (kept out of app/db time)\n')
    expect(table).toContain('server-timing web #1: 1 header was not a duration (kept out of app/db time)\n')
    expect(table).not.toMatch(/server-timing quiet/)
  })
})
