// The draft parts the wizard's editors work on (./draftPart.ts): a change goes to the right piece of a
// copy, and a piece's messages are read at the config's path, not the draft's.
import { describe, expect, it } from 'vitest'
import { defaultDraft, type Draft } from './draft.ts'
import { child, draftPart, rowOf, rowsOf } from './draftPart.ts'

function editable(draft: Draft, issues: Map<string, string> = new Map()) {
  let current = draft
  const patch = (change: (d: Draft) => void) => {
    const next = structuredClone(current)
    change(next)
    current = next
  }
  return { root: draftPart(draft, patch, issues), now: () => current }
}

describe('draft parts', () => {
  it('changes the row it was taken for and nothing else', () => {
    const { root, now } = editable(defaultDraft())
    const phases = child(child(child(root, 'load'), 'profile'), 'phases')
    rowOf(phases, 2)?.set((p) => void (p.duration = 99))
    expect(now().load.profile.phases.map((p) => p.duration)).toEqual([10, 30, 99, 10])
    expect(rowOf(phases, 4)).toBeNull()
    expect(rowsOf(phases).map(({ i, row }) => [i, row.value.name])).toEqual([
      [0, 'warmup'],
      [1, 'load'],
      [2, 'peak'],
      [3, 'cooldown'],
    ])
  })

  it('drops a change to a row removed since the part was taken', () => {
    const { root, now } = editable(defaultDraft())
    const stages = child(child(child(root, 'load'), 'profile'), 'stages')
    const last = rowOf(stages, 2)
    stages.set((list) => void list.splice(2, 1))
    last?.set((s) => void (s.connections = 5))
    expect(now().load.profile.stages.map((s) => s.connections)).toEqual([8, 16])
  })

  it("reads a piece's messages at the config's path where the draft's differs", () => {
    const issues = new Map([
      ['load.profile.from', 'must be 0 or more'],
      ['load.profile.phases.1.share', 'must be at most 1'],
      ['load.profile', 'unknown kind'],
    ])
    const { root } = editable(defaultDraft(), issues)
    const profile = child(child(root, 'load'), 'profile')
    // The ramp's fields sit on the config's profile itself.
    expect(child(profile, 'ramp', '').at('from')).toBe('must be 0 or more')
    expect(rowOf(child(profile, 'phases'), 1)?.at('share')).toBe('must be at most 1')
    expect(profile.at()).toBe('unknown kind')
    expect(profile.path).toBe('load.profile')
  })
})
