// A run's warnings in words, as the live view, run detail, the CLI and the report print them.
import { describe, expect, it } from 'vitest'
import type { RunWarning } from '../api/types.ts'
import { warningLine } from './warnings.ts'

const base: RunWarning = {
  kind: 'monitor',
  field: 'targets.1.monitor.0',
  target: 'node-http',
  source: 'docker',
  message: 'container x: no such container',
  stopped: true,
  at: '2025-01-01T00:00:00.000Z',
  t: 0,
  count: 1,
}

describe('warning words', () => {
  it.each([
    [
      { t: null },
      'failed from the start: container x: no such container. No CPU or memory from it in this run.',
    ],
    [
      { t: -1.5 },
      'failed from the start: container x: no such container. No CPU or memory from it in this run.',
    ],
    [
      { t: 0.4 },
      'failed from the start: container x: no such container. No CPU or memory from it in this run.',
    ],
    [
      { t: 12.34, stopped: false, message: 'stats stream of x: socket hang up.' },
      'failed from 12 s into the run: stats stream of x: socket hang up. It kept trying; its charts may have gaps.',
    ],
    [
      { t: 3.25, stopped: false, count: 3, source: 'cloudfoundry', message: 'token refused' },
      'failed from 3.3 s into the run: token refused. It kept trying (reported 3 times); its charts may have gaps.',
    ],
  ] as [Partial<RunWarning>, string][])('%o', (change, words) => {
    const w = { ...base, ...change }
    expect(warningLine(w)).toBe(`The ${w.source} monitor of node-http (targets.1.monitor.0) ${words}`)
  })
})
