// Issue 20, item 8: `load.warmupSeconds: 0` is honoured after a stack start: the 10 s warm-up a
// just-started stack gets by default does not run when the config itself says none.
import { describe, expect, it } from 'vitest'
import { parseRunConfig } from './load.ts'
import { DEFAULT_RESTART_WARMUP_SECONDS, restartWarmupSeconds } from './sweep.ts'

const raw = (load: Record<string, unknown>) => ({
  version: 1,
  name: 'warm-up',
  targets: [{ name: 't', url: 'http://127.0.0.1:8080/' }],
  load: { connections: 1, duration: 5, ...load },
})

describe('the warm-up after a stack start', () => {
  it.each([
    ['warmupSeconds: 0 said', { warmupSeconds: 0 }, 0],
    ['warmupSeconds not said', {}, DEFAULT_RESTART_WARMUP_SECONDS],
    ['warmupSeconds: 3 of its own', { warmupSeconds: 3 }, 0],
  ] as const)('%s', (_what, load, seconds) => {
    const input = raw(load)
    expect(restartWarmupSeconds(parseRunConfig(input), input)).toBe(seconds)
  })
})
