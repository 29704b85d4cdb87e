// The Load step's "other" load generators: agents a person starts, which the config names
// `agents: { count, on: external }` (the run waits at its barrier for them), and the line each runs.
import { describe, expect, it } from 'vitest'
import type { AgentsConfig } from '#engine/config/schema.ts'
import { agentLines, agentsFromConfig, agentsInput, LINES_SHOWN } from './agentsDraft.ts'
import { defaultDraft, toConfigInput } from './draft.ts'

describe('agents started by hand ("other")', () => {
  it('go into the config as on: external, with the count and what a loaded config had', () => {
    const d = defaultDraft()
    d.agents = { on: 'other', count: 3, rest: { barrierTimeoutSeconds: 900 } }
    expect(toConfigInput(d).agents).toEqual({ count: 3, on: 'external', barrierTimeoutSeconds: 900 })
    expect(agentsInput({ on: 'machine', count: 3, rest: {} })).toBeUndefined()
    expect(agentsInput({ on: 'docker', count: 2, rest: {} })).toEqual({ count: 2, on: 'docker' })
  })

  it('come back from a config as the "other" choice', () => {
    const external = 'external' as string as AgentsConfig['on']
    const stored = { count: 3, on: external, raw: 'keep', barrierTimeoutSeconds: 600, lostAfterSeconds: 10 }
    const draft = agentsFromConfig(stored as AgentsConfig)
    expect(draft).toEqual({
      on: 'other',
      count: 3,
      rest: { raw: 'keep', barrierTimeoutSeconds: 600, lostAfterSeconds: 10 },
    })
    expect(agentsInput(draft)).toEqual(stored)
  })

  it('each get their own line: index 0 … count − 1, the count, no store URL or password', () => {
    const lines = agentLines(3)
    expect(lines).toHaveLength(3)
    lines.forEach((line, i) => {
      expect(line).toContain(`CANNONADE_AGENT_INDEX=${i}`)
      expect(line).toContain('CANNONADE_AGENT_COUNT=3')
      expect(line).toMatch(/ cannonade agent$/)
      expect(line).not.toContain('postgres://')
    })
    expect(agentLines(50)).toHaveLength(LINES_SHOWN)
    expect(agentLines(undefined)).toEqual([expect.stringContaining('CANNONADE_AGENT_INDEX=INDEX')])
  })
})
