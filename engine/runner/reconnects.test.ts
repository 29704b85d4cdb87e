// What a target's round says of its connections in the run's warnings: the reconnects of a
// keep-alive run (issue 28) and an HTTP/2 server's stream limit below `streams` (issue 31).
import { describe, expect, it } from 'vitest'
import type { TargetRoundSummary } from '../api/types.ts'
import { parseRunConfig } from '../config/load.ts'
import { headlineBlock } from '../testing/stats-block.ts'
import { streamLimitWarning } from './reconnects.ts'

const config = parseRunConfig({
  version: 1,
  name: 'streams',
  targets: [
    { name: 'h2c', url: 'http://127.0.0.1:1/', protocol: 'h2c', streams: 10 },
    { name: 'one', url: 'http://127.0.0.1:2/', protocol: 'h2c' },
  ],
  load: { connections: 2, duration: 1 },
})

const round = (target: string, streamLimit?: number): TargetRoundSummary => ({
  ...headlineBlock(1000, 2000, 100),
  target,
  round: 1,
  phases: [],
  histogram: '',
  correctedHistogram: null,
  connect: null,
  schedule: null,
  serverTimingInvalid: 0,
  ...(streamLimit !== undefined ? { streamLimit } : {}),
})

describe("an HTTP/2 server's stream limit", () => {
  it('below the target’s streams: said, naming the limit, the streams asked and the field', () => {
    expect(streamLimitWarning(config, round('h2c', 2))).toEqual({
      kind: 'connections',
      field: 'targets.0.streams',
      target: 'h2c',
      source: 'load',
      message:
        'h2c #1: the server allows 2 concurrent streams per connection (SETTINGS_MAX_CONCURRENT_STREAMS), below streams: 10, so at most 2 of them were in flight on each connection',
      stopped: false,
    })
    expect(streamLimitWarning(config, round('h2c', 1))?.message).toContain('allows 1 concurrent stream per')
  })

  it('at or above the streams asked, none set, or no such target: nothing said', () => {
    expect(streamLimitWarning(config, round('h2c', 10))).toBeNull()
    expect(streamLimitWarning(config, round('h2c', 100))).toBeNull()
    expect(streamLimitWarning(config, round('h2c'))).toBeNull()
    expect(streamLimitWarning(config, round('one', 1))).toBeNull()
    expect(streamLimitWarning(config, round('gone', 1))).toBeNull()
  })
})
