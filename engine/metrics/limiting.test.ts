// The limiting-resource rule on seconds the test writes: each limit at and just below its
// threshold, the order when several are found, and what "nothing found" says it could not see.
// Against real targets whose limit a test sets: engine/runner/limited.load.test.ts (CPU quota,
// errors, a generator held back) and engine/store/limited.pg.test.ts (database connections).
import { describe, expect, it } from 'vitest'
import { limitedBy, type LimitInputs, type LimitSecond } from './limiting.ts'

const second = (s: Partial<LimitSecond> = {}): LimitSecond => ({
  cpu: null,
  memory: null,
  dbTotal: null,
  dbActive: null,
  generatorCpu: 20,
  ...s,
})
const inputs = (i: Partial<LimitInputs> = {}): LimitInputs => ({
  target: 't',
  seconds: Array.from({ length: 10 }, () => second()),
  cpuLimit: null,
  memoryLimit: null,
  connectionLimit: null,
  requests: 1000,
  failed: 0,
  errors: {},
  schedule: null,
  ...i,
})
const secs = (n: number, s: Partial<LimitSecond>, rest: Partial<LimitSecond> = {}) =>
  Array.from({ length: 10 }, (_, i) => second(i < n ? s : rest))

describe('what limited a target', () => {
  it('its CPU: at least 90 % of its limit in at least half the seconds', () => {
    const pinned = limitedBy(
      inputs({ seconds: secs(5, { cpu: 96 }, { cpu: 50 }), cpuLimit: { cores: 1, own: true } }),
    )
    expect(pinned.kind).toBe('cpu')
    expect(pinned.text).toMatch(
      /its CPU: 73 % of its limit of 1 core on average, at least 90 % in 5 of 10 seconds/,
    )
    expect(
      limitedBy(inputs({ seconds: secs(4, { cpu: 96 }, { cpu: 50 }), cpuLimit: { cores: 1, own: true } }))
        .kind,
    ).toBe('none')
    // Without a limit of its own, a local target may use the host's cores.
    const host = limitedBy(inputs({ seconds: secs(10, { cpu: 185 }), cpuLimit: { cores: 2, own: false } }))
    expect(host.text).toMatch(/the host's 2 cores/)
    expect(
      limitedBy(inputs({ seconds: secs(10, { cpu: 170 }), cpuLimit: { cores: 2, own: false } })).kind,
    ).toBe('none')
  })

  it('its memory: 90 % of its limit at its peak', () => {
    const mib = 1048576
    expect(
      limitedBy(
        inputs({ seconds: secs(1, { memory: 231 * mib }, { memory: 100 * mib }), memoryLimit: 256 * mib }),
      ).text,
    ).toBe('limited by its memory: 231 MiB of its 256 MiB limit at its peak')
    expect(limitedBy(inputs({ seconds: secs(1, { memory: 230 * mib }), memoryLimit: 256 * mib })).kind).toBe(
      'none',
    )
  })

  it("its database's connections: the database full, or every connection the pool holds busy", () => {
    expect(
      limitedBy(inputs({ seconds: secs(6, { dbTotal: 92, dbActive: 10 }), connectionLimit: 97 })).kind,
    ).toBe('db-connections')
    const pool = limitedBy(
      inputs({ seconds: secs(5, { dbTotal: 10, dbActive: 10 }, { dbTotal: 10, dbActive: 3 }) }),
    )
    expect(pool.text).toMatch(/every one it held busy \(up to 10 open/)
    expect(
      limitedBy(inputs({ seconds: secs(4, { dbTotal: 10, dbActive: 10 }, { dbTotal: 10, dbActive: 3 }) }))
        .kind,
    ).toBe('none')
  })

  it('its errors: 1 % of requests failed', () => {
    const e = limitedBy(inputs({ failed: 10, errors: { status: 8, timeout: 2 } }))
    expect(e.text).toBe('limited by its errors: 1 % of requests failed (timeout 2 · unexpected status 8)')
    expect(limitedBy(inputs({ failed: 9, errors: { status: 9 } })).kind).toBe('none')
  })

  it('the generator: saturated in more than 10 % of the seconds, or behind its schedule', () => {
    expect(limitedBy(inputs({ seconds: secs(2, { generatorCpu: 95 }) })).kind).toBe('generator')
    expect(limitedBy(inputs({ seconds: secs(1, { generatorCpu: 95 }) })).kind).toBe('none')
    const schedule = { scheduled: 1000, sent: 1000, unsent: 0, late: 600, latenessP50: 1_500 }
    const unsent = limitedBy(inputs({ schedule: { ...schedule, sent: 990, unsent: 10 } }))
    expect(unsent.text).toMatch(
      /10 sends \(1 %\) never sent, the median send 1\.50 ms late, 61 % more than 1 ms/,
    )
    expect(limitedBy(inputs({ schedule: { ...schedule, latenessP50: 10_000 } })).kind).toBe('generator')
    // Sends a millisecond or two late, as a busy machine's timers make them, limit nothing.
    const jitter = { ...schedule, sent: 991, unsent: 9, latenessP50: 9_999 }
    expect(limitedBy(inputs({ schedule: jitter })).kind).toBe('none')
  })

  it('names the first in LIMIT_ORDER and lists the others', () => {
    const both = limitedBy(
      inputs({
        seconds: secs(10, { cpu: 99, generatorCpu: 97 }),
        cpuLimit: { cores: 1, own: true },
        failed: 50,
        errors: { timeout: 50 },
      }),
    )
    expect(both.kind).toBe('generator')
    expect(both.found.map((f) => f.kind)).toEqual(['generator', 'cpu', 'errors'])
  })

  it('says what it could not see when nothing is found', () => {
    expect(limitedBy(inputs()).text).toBe(
      'nothing found at its limit; not known: its CPU (no monitor read it), its memory (no monitor read it)',
    )
    const seen = limitedBy(
      inputs({ seconds: secs(10, { cpu: 40, memory: 1e8 }), cpuLimit: { cores: 1, own: true } }),
    )
    expect(seen.text).toBe('nothing found at its limit; not known: its memory limit (none known)')
  })
})
