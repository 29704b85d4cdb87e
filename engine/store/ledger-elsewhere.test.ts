// Where a run's raw requests are when its agents kept them (issue 19, item 3), in the words every
// screen uses: each agent's host and file and what brings them in; for launchers whose files go
// with their containers or pods, that they are gone and how to keep them next time. Agents whose
// ledger was uploaded are in the run already and not named.
import { describe, expect, it } from 'vitest'
import { agentReport as agent, distributionOf as distribution } from '../testing/distribution.ts'
import { keptElsewhere } from './ledger-elsewhere.ts'

describe('raw requests kept by load agents', () => {
  it('names each agent that kept its ledger, its host and file, and `import ledger` for this run', () => {
    const d = distribution('external', [
      agent(0, 'box-a:/var/lib/cannonade/agents/a0/ledger.db', 1200, false),
      agent(1, 'box-b:/srv/c/ledger.db', 800, true),
      agent(2, '/data/agents/a2/ledger.db', 1000, false),
    ])
    const e = keptElsewhere(7, d)!
    expect(e.requests).toBe(2200)
    expect(e.agents.map((a) => [a.index, a.host, a.path, a.gone])).toEqual([
      [0, 'box-a', '/var/lib/cannonade/agents/a0/ledger.db', false],
      [2, 'agent-host-2', '/data/agents/a2/ledger.db', false],
    ])
    expect(e.advice).toContain('`cannonade import ledger FILE --run 7`')
    expect(e.where).toEqual([
      'agent 0 on box-a: /var/lib/cannonade/agents/a0/ledger.db (1,200 requests)',
      'agent 2 on agent-host-2: /data/agents/a2/ledger.db (1,000 requests)',
    ])
  })

  it('in containers or pods: gone with them, and --raw upload keeps them next time', () => {
    for (const [on, where] of [
      ['docker', 'containers'],
      ['kubernetes', 'pods'],
    ] as const) {
      const e = keptElsewhere(3, distribution(on, [agent(0, 'c0:/data/ledger.db', 500, false)]))!
      expect(e.agents[0]!.gone).toBe(true)
      expect(e.advice).toContain(`in their ${where}, which are gone with them`)
      expect(e.advice).toContain('--raw upload')
      expect(e.where).toEqual(['agent 0 on c0: (gone with the agent) /data/ledger.db (500 requests)'])
    }
  })

  it('nothing elsewhere: every ledger uploaded, or a run of one process', () => {
    expect(keptElsewhere(1, distribution('local', [agent(0, '/x/ledger.db', 10, true)]))).toBeNull()
    expect(keptElsewhere(1, null)).toBeNull()
  })

  it('an agent lost before it uploaded (issue 29, item 15): counted from its seconds, named and pointed to', () => {
    const lost = {
      ...agent(1, 'box-b:/srv/agents/a1/ledger.db', 0, false),
      state: 'lost' as const,
      requests: 30_082,
    }
    const d = distribution('local', [agent(0, '/x/a0/ledger.db', 145_762, true), lost])
    const e = keptElsewhere(9, d)!
    expect(e.requests).toBe(30_082)
    expect(e.agents).toEqual([
      { index: 1, host: 'box-b', path: '/srv/agents/a1/ledger.db', rows: 30_082, gone: false, lost: true },
    ])
    expect(e.advice).toMatch(
      /^agent 1 was lost before its raw ledger was uploaded; bring each agent's ledger in with `cannonade import ledger FILE --run 9`/,
    )
    expect(e.where).toEqual(['agent 1 (lost) on box-b: /srv/agents/a1/ledger.db (30,082 requests)'])
    // A failed agent too; one lost in a container: its ledger is gone, and the figures count it.
    expect(keptElsewhere(9, distribution('local', [{ ...lost, state: 'failed' }]))?.requests).toBe(30_082)
    const pod = keptElsewhere(9, distribution('kubernetes', [lost]))!
    expect(pod.advice).toBe(
      "agent 1 was lost before its raw ledger was uploaded: it went with the agent's pod; the run's figures count those requests, this database holds no row of them",
    )
    // An agent that ended and uploaded, or sent nothing, holds nothing elsewhere.
    expect(keptElsewhere(9, distribution('local', [{ ...lost, requests: 0 }]))).toBeNull()
  })
})
