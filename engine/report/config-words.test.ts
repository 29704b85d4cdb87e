// The config in words (engine/report/sections.ts configWords), as the wizard's Review and the
// report's configuration table say it: the order of targets is only spoken of where there are
// several targets to order.
import { describe, expect, it } from 'vitest'
import { parseRunConfig } from '../config/load.ts'
import { configWords } from './sections.ts'

function config(targets: number, more: Record<string, unknown> = {}) {
  return parseRunConfig({
    version: 1,
    name: 'words',
    targets: Array.from({ length: targets }, (_, i) => ({
      name: `t${i}`,
      url: `http://127.0.0.1:${8000 + i}/`,
    })),
    load: { connections: 2, duration: 10 },
    ...more,
  })
}

describe('the schedule in words', () => {
  it('names no order for one target, whichever the config holds', () => {
    for (const schedule of ['interleaved', 'sequential']) {
      const words = configWords(config(1, { schedule, rounds: 3, cooldownSeconds: 5 })).schedule
      expect(words).toBe('3 rounds, one after another, 5 s cool-down between segments')
    }
    expect(configWords(config(1, { rounds: 1 })).schedule).toBe('1 round')
  })

  it('names the order of two targets', () => {
    expect(configWords(config(2, { schedule: 'interleaved', rounds: 3, cooldownSeconds: 5 })).schedule).toBe(
      'interleaved (A, B, A, B…), 3 rounds, 5 s cool-down between segments',
    )
    expect(configWords(config(2, { schedule: 'sequential', rounds: 2, cooldownSeconds: 0 })).schedule).toBe(
      'sequential (every round of A, then B), 2 rounds, 0 s cool-down between segments',
    )
  })
})
