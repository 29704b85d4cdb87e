// The agent's environment contract (README.md): where its index comes from on each platform, the
// store's URL from the environment or a secret file (never argv), and errors naming the variable.
// And the clock offset: the round trip with the smallest delay wins.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { measureOffset } from './coordination/clock.ts'
import { agentEnv, readAgentEnv } from './env.ts'

const RUN = '0123456789abcdef'
const base = {
  CANNONADE_RUN: RUN,
  CANNONADE_AGENT_COUNT: '4',
  CANNONADE_STORE_URL: 'postgres://u:p@db:5432/x',
}

describe("an agent's environment", () => {
  it.each([
    [{ CANNONADE_AGENT_INDEX: '2' }, 2, 'CANNONADE_AGENT_INDEX'],
    [{ JOB_COMPLETION_INDEX: '3' }, 3, 'JOB_COMPLETION_INDEX'],
    [{ CF_INSTANCE_INDEX: '1' }, 1, 'CF_INSTANCE_INDEX'],
    [{ NOMAD_ALLOC_INDEX: '0' }, 0, 'NOMAD_ALLOC_INDEX'],
    [{ CANNONADE_AGENT_SLOT: '3' }, 3, 'CANNONADE_AGENT_SLOT'],
    // The first in the documented order wins when several are set.
    [
      { JOB_COMPLETION_INDEX: '1', CF_INSTANCE_INDEX: '2', CANNONADE_AGENT_INDEX: '3' },
      3,
      'CANNONADE_AGENT_INDEX',
    ],
    [{ NOMAD_ALLOC_INDEX: '2', CF_INSTANCE_INDEX: '1' }, 1, 'CF_INSTANCE_INDEX'],
  ])('takes its index from %o', (vars, index, from) => {
    const env = readAgentEnv({ ...base, ...vars })
    expect(env.index).toBe(index)
    expect(env.indexFrom).toBe(from)
    expect(env.count).toBe(4)
    expect(env.runKey).toBe(RUN)
  })

  it('reads the store URL from a secret file when the variable is not set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-env-'))
    const file = join(dir, 'store-url')
    writeFileSync(file, 'postgres://agent:s3cret@db:5432/coord\n')
    const { CANNONADE_STORE_URL: _url, ...rest } = base
    const env = readAgentEnv({ ...rest, CANNONADE_AGENT_INDEX: '0', CANNONADE_STORE_URL_FILE: file })
    expect(env.storeUrl).toBe('postgres://agent:s3cret@db:5432/coord')
    expect(() =>
      readAgentEnv({ ...rest, CANNONADE_AGENT_INDEX: '0', CANNONADE_STORE_URL_FILE: join(dir, 'missing') }),
    ).toThrow(/CANNONADE_STORE_URL_FILE: cannot read .*missing \(ENOENT\)/)
  })

  it.each([
    [{ ...base }, /no agent index: set one of CANNONADE_AGENT_INDEX, JOB_COMPLETION_INDEX/],
    [{ ...base, CANNONADE_AGENT_INDEX: '4' }, /CANNONADE_AGENT_INDEX=4 is outside 0…3/],
    [{ ...base, CANNONADE_AGENT_INDEX: '-1' }, /CANNONADE_AGENT_INDEX="-1" is not a whole number from 0/],
    [{ ...base, JOB_COMPLETION_INDEX: 'one' }, /JOB_COMPLETION_INDEX="one" is not a whole number/],
    [
      { ...base, CANNONADE_AGENT_INDEX: '0', CANNONADE_AGENT_COUNT: undefined },
      /CANNONADE_AGENT_COUNT is not set/,
    ],
    [{ ...base, CANNONADE_AGENT_INDEX: '0', CANNONADE_RUN: 'x' }, /CANNONADE_RUN must be the run's key/],
    [
      { ...base, CANNONADE_AGENT_INDEX: '0', CANNONADE_STORE_URL: undefined },
      /set CANNONADE_STORE_URL or CANNONADE_STORE_URL_FILE/,
    ],
    [
      { ...base, CANNONADE_AGENT_INDEX: '0', CANNONADE_STORE_URL: 'mysql://x' },
      /must be a postgres:\/\/ URL/,
    ],
  ])('names what is wrong: %o', (env, message) => {
    expect(() => readAgentEnv(env)).toThrow(message)
  })

  it('never echoes the store URL (it may hold a password) in an error', () => {
    try {
      readAgentEnv({ ...base, CANNONADE_AGENT_INDEX: '0', CANNONADE_STORE_URL: 'mysql://root:hunter2@db' })
      expect.unreachable()
    } catch (err) {
      expect(String(err)).not.toMatch(/hunter2/)
    }
  })

  it('is what a launcher gives every agent, the index added per agent', () => {
    const env = agentEnv({ runKey: RUN, count: 3 })
    expect(env).toEqual({ CANNONADE_RUN: RUN, CANNONADE_AGENT_COUNT: '3' })
    const agent = readAgentEnv({ ...env, CANNONADE_STORE_URL: 'ipc:', JOB_COMPLETION_INDEX: '2' })
    expect(agent.index).toBe(2)
    expect(agent.dataDir).toContain(`cannonade-agent-${RUN}-2`)
  })
})

describe('the clock offset', () => {
  it('comes from the round trip with the smallest delay, read at its midpoint', async () => {
    // A store 5 s ahead; round trips of 30, 4 (1 out, 3 back) and 50 ms.
    let local = 1_000_000
    const trips = [
      [10, 20],
      [1, 3],
      [25, 25],
    ]
    let i = 0
    const storeNow = async () => {
      const [out, back] = trips[i++]!
      local += out!
      const at = local + 5000
      local += back!
      return at
    }
    const o = await measureOffset(storeNow, () => local, 3)
    expect(o.delayMs).toBe(4)
    // The asymmetric trip (1 out, 3 back) puts the midpoint 1 ms after the store read its clock:
    // the offset is 1 ms short, within half the delay as promised.
    expect(o.offsetMs).toBe(4999)
    expect(Math.abs(o.offsetMs - 5000)).toBeLessThanOrEqual(o.delayMs / 2)
  })
})
