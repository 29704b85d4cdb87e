// What the bad-input checks (bad-input-bounds.test.ts, bad-input-wire.test.ts) leave allowed: the
// configs next to the refused ones parse (a Host header of its own, Latin-1, an escaped URL,
// credentials, captured variables, the largest bounds themselves), and the load's bound holds
// where a config comes in without the whole schema (the wizard's preview, the compiler).
import { describe, expect, it } from 'vitest'
import { config, scenario, step, withTarget, type Doc } from './bad-input-configs.ts'
import { compilePlan } from './compile.ts'
import { ConfigError } from './errors.ts'
import { LIMITS } from './limits.ts'
import { parseRunConfig } from './load.ts'
import { StoredRunConfigSchema, type Load } from './schema.ts'

describe('what stays allowed', () => {
  it.each<[string, Doc]>([
    ['a Host header of its own (virtual hosts)', withTarget({ headers: { Host: 'api.example' } })],
    ['Latin-1 in a header value, tabs inside', withTarget({ headers: { 'X-A': 'caf\u00e9\tb' } })],
    ['an escaped URL with a query', withTarget({ url: 'http://127.0.0.1:9/a%20b?q=1&r=%2F' })],
    ['credentials in the URL', withTarget({ url: 'http://user:p%40ss@127.0.0.1:9/' })],
    [
      'built-ins and earlier captures',
      scenario(
        step({
          name: 'login',
          path: '/login?i=${iteration}&c=${conn}',
          capture: { token: { json: 'token' } },
        }),
        step({
          name: 'me',
          path: '/me/${token}',
          headers: { Authorization: 'Bearer ${token}' },
          body: '${token}',
        }),
      ),
    ],
    [
      'the largest bounds themselves',
      config(
        {},
        {
          duration: LIMITS.scheduleSeconds,
          rate: LIMITS.maxRate,
          profile: { kind: 'burst', burstSeconds: 12.1, idleSeconds: 0 },
        },
      ),
    ],
  ])('%s', (_name, doc) => {
    expect(() => parseRunConfig(doc)).not.toThrow()
  })

  it('the wizard sees the bound on the load alone (its live preview parses only the load)', () => {
    const load = StoredRunConfigSchema.shape.load.safeParse({
      connections: 4,
      duration: 3600,
      profile: { kind: 'burst', burstSeconds: 0.001, idleSeconds: 0.001 },
    })
    expect(load.success).toBe(false)
    expect(load.error?.issues[0]).toMatchObject({ path: ['profile', 'burstSeconds'] })
  })

  it('the compiler refuses an unchecked load before it allocates', () => {
    // As a stored or hand-built load could arrive, past the schema.
    const load = {
      connections: 4,
      duration: 3600,
      profile: { kind: 'burst', burstSeconds: 1e-9, idleSeconds: 0 },
    }
    expect(() => compilePlan(load as unknown as Load)).toThrow(ConfigError)
    expect(() => compilePlan(load as unknown as Load)).toThrow(/load\.profile\.burstSeconds/)
  })
})
