// A distributed run's Server-Timing headers that were not durations: each agent counts those of
// its own connections, and the merged round holds their sum (an agent of an older version, which
// sent no count, adds 0).
import { describe, expect, it } from 'vitest'
import type { TargetRoundSummary } from '../../api/types.ts'
import { StatsAccumulator } from '../../metrics/accumulate.ts'
import { encodeStats } from '../../metrics/encoded.ts'
import type { AgentSegmentRow } from '../coordination/protocol.ts'
import { mergeSegment } from './merge.ts'

function row(index: number, serverTimingInvalid: number | undefined): AgentSegmentRow {
  const acc = new StatsAccumulator()
  for (let i = 0; i < 10; i++) acc.add(1000 + i, -1, 200, 100, 0, i < 5 ? 500 : -1, -1)
  const total = encodeStats(acc)
  acc.destroy()
  return {
    index,
    segment: {
      segment: 0,
      seconds: 1,
      phaseSeconds: [1],
      total,
      phases: [total],
      steps: null,
      ...(serverTimingInvalid === undefined ? {} : { serverTimingInvalid }),
    },
    summary: {} as TargetRoundSummary,
  }
}

describe("agents' Server-Timing headers that were not durations", () => {
  it('are summed over the agents, an agent without the count adding none', () => {
    const seg = { index: 0, targetIndex: 0, target: 'api', round: 1 }
    const merged = mergeSegment(seg, ['main'], [], [row(0, 3), row(1, 4), row(2, undefined), row(3, 0)])
    expect(merged.serverTimingInvalid).toBe(7)
    expect(merged.requests).toBe(40)
    // Only the valid durations are figures: 5 responses of each agent carried one.
    expect(merged.serverApp?.count).toBe(20)
  })
})
