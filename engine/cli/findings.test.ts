import { describe, expect, it } from 'vitest'
import type { LimitedBy } from '../api/types.ts'
import { limitLines } from './findings.ts'

describe('what limited each target, as the CLI prints it', () => {
  it('says each kind once: the text names it ("limited by its CPU", "nothing found")', () => {
    const cpu: LimitedBy = {
      target: 'java',
      kind: 'cpu',
      text: 'limited by its CPU: 97 % of its 1 CPU limit in 9 of 10 seconds',
      found: [
        { kind: 'cpu', text: 'limited by its CPU: 97 % of its 1 CPU limit in 9 of 10 seconds' },
        { kind: 'errors', text: 'limited by its errors: 2 % of requests failed' },
      ],
      unknown: [],
    }
    const none: LimitedBy = {
      target: 'node',
      kind: 'none',
      text: 'nothing found at its limit; not known: its memory limit (none known)',
      found: [],
      unknown: ['its memory limit (none known)'],
    }
    expect(limitLines({ limitedBy: [cpu, none] })).toEqual([
      '',
      'limited by (from what was measured):',
      '  java: limited by its CPU: 97 % of its 1 CPU limit in 9 of 10 seconds',
      '    also: limited by its errors: 2 % of requests failed',
      '  node: nothing found at its limit; not known: its memory limit (none known)',
    ])
    expect(limitLines({ limitedBy: [] })).toEqual([])
  })
})
