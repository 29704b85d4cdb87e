import { describe, expect, it } from 'vitest'
import { QUIET_MS, upNext } from './upNext.ts'

const config = {
  targets: [{ name: 'a' }, { name: 'b' }] as never,
  rounds: 2,
  schedule: 'interleaved' as const,
  cooldownSeconds: 5,
}

describe('upNext', () => {
  it('is nothing while seconds keep coming', () => {
    expect(upNext(config, { target: 'a', round: 1 }, 900)).toBeNull()
  })

  it('names the next segment in the runner order and counts the cool-down down', () => {
    expect(upNext(config, { target: 'a', round: 1 }, QUIET_MS)).toEqual({
      target: 'b',
      round: 1,
      index: 2,
      of: 4,
      inSeconds: 5,
    })
    expect(upNext(config, { target: 'b', round: 1 }, 4000)?.inSeconds).toBe(2)
    expect(upNext(config, { target: 'b', round: 1 }, 60_000)).toMatchObject({
      target: 'a',
      round: 2,
      inSeconds: 0,
    })
    expect(upNext({ ...config, schedule: 'sequential' }, { target: 'a', round: 1 }, 2000)).toMatchObject({
      target: 'a',
      round: 2,
    })
  })

  it('is nothing after the last segment', () => {
    expect(upNext(config, { target: 'b', round: 2 }, 10_000)).toBeNull()
  })
})
