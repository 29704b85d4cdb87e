// The Docker engine's answers are bounded too (issue 29, the class of item 8): dockerode gathers
// an answer whole before it parses it, and the engine is wherever a config's socketPath or the
// Docker host setting points. Against a stand-in engine answering a container list that never
// ends, or one of 40 MB: the monitor's start fails naming the limit, within its call deadline.
import { afterEach, describe, expect, it } from 'vitest'
import { startHostile, type HostileAnswer, type HostileServer } from '../testing/hostile-http.ts'
import { DockerMonitor } from './docker.ts'

let engine: HostileServer | null = null
afterEach(async () => {
  await engine?.close()
  engine = null
})

describe('a Docker engine answering without bounds', () => {
  const CASES: [string, HostileAnswer][] = [
    ['a container list that never ends', { endless: true }],
    ['a container list of 40 MB', { megabytes: 40 }],
  ]
  for (const [what, answer] of CASES)
    it(`${what}: the monitor's start fails, naming the limit`, async () => {
      engine = await startHostile((r) =>
        r.path.includes('_ping') ? { body: 'OK', headers: { 'content-type': 'text/plain' } } : answer,
      )
      const m = new DockerMonitor(
        { kind: 'docker', project: 'shop' },
        't',
        1000,
        `tcp://127.0.0.1:${engine.port}`,
        20_000,
      )
      const error = await m
        .start(
          () => {},
          () => {},
        )
        .catch((e: Error) => e)
      await m.stop()
      expect(String(error)).toMatch(/answered more than 32 MB within 10 s/)
      expect(engine.received.some((r) => r.path.includes('/containers/json'))).toBe(true)
    })
})
