// A target's `secrets`: `${name}`s of its steps read from CANNONADE_SECRET_… variables when a run
// starts. What the schema accepts and refuses, and what the runner's copy of a config gets.
import { describe, expect, it } from 'vitest'
import { ConfigError } from './errors.ts'
import { parseRunConfig } from './load.ts'
import { configIssues } from '../testing/config.ts'
import { resolveSecrets, secretEnv, secretEnvName, secretLookup } from './secret-vars.ts'

const config = (target: Record<string, unknown>) => ({
  version: 1,
  name: 'secrets',
  targets: [{ name: 'shop', url: 'http://127.0.0.1:8080/api', ...target }],
  load: { connections: 1, duration: 1 },
})

const STEPS = [
  {
    name: 'login',
    method: 'POST',
    path: '/login',
    body: '{"password":"${password}"}',
    capture: { token: { json: 'token' } },
  },
  { name: 'me', path: '/me?key=${key}', headers: { cookie: '${cookie}', authorization: 'Bearer ${token}' } },
]
const SECRETS = {
  password: 'CANNONADE_SECRET_PASSWORD',
  key: 'CANNONADE_SECRET_KEY',
  cookie: 'CANNONADE_SECRET_COOKIE',
}

const issues = configIssues

describe('secrets in a config', () => {
  it('are variables its steps may use, beside captures and built-ins', () => {
    expect(issues(config({ secrets: SECRETS, steps: STEPS }))).toEqual([])
    expect(issues(config({ steps: STEPS }))).toEqual([
      expect.stringMatching(
        /^targets\.0\.steps\.0\.body: step "login" uses \$\{password\}, which no earlier step captures/,
      ),
      expect.stringMatching(/^targets\.0\.steps\.1\.path: step "me" uses \$\{key\}/),
      expect.stringMatching(/^targets\.0\.steps\.1\.headers\.cookie: step "me" uses \$\{cookie\}/),
    ])
  })

  it.each<[string, Record<string, unknown>, RegExp]>([
    [
      'a variable not named for secrets',
      { secrets: { cookie: 'HOME' }, steps: STEPS },
      /secrets\.cookie: must be an environment variable named CANNONADE_SECRET_…/,
    ],
    [
      "the engine's own variable",
      { secrets: { x: 'CANNONADE_PG_URL' }, steps: STEPS },
      /secrets\.x: must be an environment variable named CANNONADE_SECRET_/,
    ],
    [
      'a password variable of the monitors',
      { secrets: { x: 'PGPASSWORD' }, steps: STEPS },
      /secrets\.x: must be an environment variable named CANNONADE_SECRET_/,
    ],
    [
      'a name that is no variable',
      { secrets: { 'a-b': 'CANNONADE_SECRET_AB' }, steps: STEPS },
      /secrets\.a-b: must be a variable name/,
    ],
    [
      'a built-in name',
      { secrets: { ...SECRETS, user: 'CANNONADE_SECRET_USER' }, steps: STEPS },
      /secrets\.user: user is a built-in variable/,
    ],
    [
      'a capture of the same name',
      { secrets: { ...SECRETS, token: 'CANNONADE_SECRET_TOKEN' }, steps: STEPS },
      /steps\.0\.capture\.token: token is one of the target's secrets: capture it under another name/,
    ],
    [
      'a target without steps',
      { secrets: SECRETS },
      /targets\.0\.secrets: are for the \$\{…\} of a target's steps, and this target has none/,
    ],
  ])('refuses %s', (_name, target, message) => {
    expect(issues(config(target)).join('\n')).toMatch(message)
  })
})

describe('resolveSecrets', () => {
  const parsed = parseRunConfig(config({ secrets: SECRETS, steps: STEPS }))
  const env = {
    CANNONADE_SECRET_PASSWORD: 'pw"1',
    CANNONADE_SECRET_KEY: 'k%2F1',
    CANNONADE_SECRET_COOKIE: 'sid=a; b=c',
  }

  it("writes the values into the runner's copy, leaving captures and the stored config as they were", () => {
    const sent = resolveSecrets(parsed, secretLookup(undefined, env))
    expect(sent.targets[0]!.steps!.map((s) => [s.path, s.headers, s.body])).toEqual([
      ['/login', {}, '{"password":"pw"1"}'],
      ['/me?key=k%2F1', { cookie: 'sid=a; b=c', authorization: 'Bearer ${token}' }, null],
    ])
    expect(parsed.targets[0]!.steps![1]!.headers.cookie).toBe('${cookie}')
    // The engine's own secrets come before its environment.
    const own = resolveSecrets(parsed, secretLookup({ CANNONADE_SECRET_KEY: 'mine' }, env))
    expect(own.targets[0]!.steps![1]!.path).toBe('/me?key=mine')
  })

  it('names every secret that is not set or cannot stand where it is used, never its value', () => {
    let error: unknown
    try {
      resolveSecrets(
        parsed,
        secretLookup(undefined, { CANNONADE_SECRET_KEY: 'a b', CANNONADE_SECRET_COOKIE: 'x\r\nInjected: 1' }),
      )
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(ConfigError)
    const { issues: found } = error as ConfigError
    expect(found.map((i) => i.field)).toEqual([
      'targets.0.secrets.password',
      'targets.0.secrets.key',
      'targets.0.secrets.cookie',
    ])
    expect(found[0]!.message).toMatch(/^CANNONADE_SECRET_PASSWORD is not set/)
    expect(found[1]!.message).toMatch(
      /^CANNONADE_SECRET_KEY holds a space, .*\(step "me" sends it in its path\)/,
    )
    expect(found[2]!.message).toMatch(
      /^CANNONADE_SECRET_COOKIE holds a carriage return .*\(step "me" sends it in a header\)/,
    )
    expect(JSON.stringify(found)).not.toContain('Injected')
  })

  it('refuses a value that would read as a variable, and an empty one', () => {
    const bad = (value: string) => () =>
      resolveSecrets(parsed, secretLookup(undefined, { ...env, CANNONADE_SECRET_PASSWORD: value }))
    expect(bad('${token}')).toThrow(/CANNONADE_SECRET_PASSWORD holds "\$\{", which would read as a variable/)
    expect(bad('')).toThrow(/CANNONADE_SECRET_PASSWORD is not set/)
  })

  it('leaves a config without secrets as it is', () => {
    const plain = parseRunConfig(config({}))
    expect(resolveSecrets(plain, () => undefined)).toBe(plain)
  })
})

describe('the variables of secrets', () => {
  it('are named CANNONADE_SECRET_ and the variable in capitals; a local agent gets only those', () => {
    expect(secretEnvName('x_api_key')).toBe('CANNONADE_SECRET_X_API_KEY')
    expect(
      secretEnv({
        CANNONADE_SECRET_A: '1',
        CANNONADE_PG_URL: 'postgres://u:p@h/d',
        PGPASSWORD: 'p',
        HOME: '/root',
      }),
    ).toEqual({
      CANNONADE_SECRET_A: '1',
    })
  })
})
