// The wizard shows the same words as the CLI and the Api (engine/config/issue-words.ts): a draft
// with a field out of bounds gets a sentence next to that field, never zod's schema text.
import { describe, expect, it } from 'vitest'
import { isDefaultMessage } from '#engine/config/issue-words.ts'
import { defaultDraft, validate, type Draft } from './draft.ts'

function draft(change: (d: Draft) => void): Draft {
  const d = defaultDraft()
  d.targets[0] = { ...d.targets[0]!, url: 'http://127.0.0.1:1/' }
  change(d)
  return d
}

const CASES: [string, (d: Draft) => void, string, string][] = [
  ['cool-down −1', (d) => (d.cooldownSeconds = -1), 'cooldownSeconds', 'must be 0 or more'],
  ['rounds 0', (d) => (d.rounds = 0), 'rounds', 'must be at least 1'],
  ['rounds 2.5', (d) => (d.rounds = 2.5), 'rounds', 'must be a whole number'],
  ['connections emptied', (d) => (d.load.connections = undefined), 'load.connections', 'is required'],
  [
    'connections typed as garbage',
    (d) => (d.load.connections = Number.NaN),
    'load.connections',
    'must be a number',
  ],
  ['pipelining 0', (d) => (d.load.pipelining = 0), 'load.pipelining', 'must be at least 1'],
  [
    'timeout 10 minutes and 1 ms',
    (d) => (d.load.timeoutMs = 600_001),
    'load.timeoutMs',
    'must be at most 600,000',
  ],
  [
    'ramp from −2',
    (d) => ((d.load.profile.kind = 'ramp'), (d.load.profile.ramp.from = -2)),
    'load.profile.from',
    'must be 0 or more',
  ],
  [
    'a stage with −1 connections',
    (d) => {
      d.load.profile.kind = 'stages'
      d.load.profile.stages = [{ duration: 5, connections: -1 }]
    },
    'load.profile.stages.0.connections',
    'must be 0 or more',
  ],
  [
    'a phase named nothing',
    (d) => {
      d.load.profile.kind = 'phases'
      d.load.profile.phases[0]!.name = ''
    },
    'load.profile.phases.0.name',
    'must not be empty',
  ],
  [
    'a body of −1 bytes',
    (d) => ((d.targets[0]!.method = 'POST'), (d.targets[0]!.generated = { size: -1, kind: 'text' })),
    'targets.0.body.size',
    'must not be negative',
  ],
  [
    'a process monitor on port 70000',
    (d) => {
      d.targets[0]!.monitor.kind = 'process'
      d.targets[0]!.monitor.process = { by: 'port', pid: undefined, port: 70_000 }
    },
    'targets.0.monitor.port',
    'port must be between 1 and 65535',
  ],
]

describe('wizard messages in words', () => {
  it.each(CASES)('%s', (_what, change, field, words) => {
    const v = validate(draft(change))
    expect(v.issues.get(field), JSON.stringify(v.list)).toBe(words)
    for (const i of v.list) expect(isDefaultMessage(i.message), `${i.field}: ${i.message}`).toBe(false)
  })
})
