// The engine's utility process starts with what it needs and no secrets (issue 12, item 17).
import { describe, expect, it } from 'vitest'
import { engineEnv, isSecretName, secretsFromEnv } from './engine-env.ts'

describe('engineEnv', () => {
  // What the engine and its tools use: kept as it is.
  const used = {
    PATH: '/usr/bin',
    HOME: '/home/u',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    XDG_RUNTIME_DIR: '/run/user/1000',
    DOCKER_HOST: 'unix:///var/run/docker.sock',
    CANNONADE_DATA_DIR: '/data',
    PGHOST: 'db',
    PGUSER: 'bench',
    SystemRoot: 'C:\\Windows',
  }
  const parent = {
    ...used,
    // secrets, by name or by look
    PGPASSWORD: 'pg-secret',
    CF_PASSWORD: 'cf-secret',
    CF_REFRESH_TOKEN: 'rt',
    CF_TOKEN: 't',
    PGSSLPASSWORD: 'x',
    CANNONADE_API_TOKEN: 'x',
    GITHUB_TOKEN: 'x',
    AWS_SECRET_ACCESS_KEY: 'x',
    NPM_CONFIG_AUTH: 'x',
    // neither needed nor secret: left out all the same
    EDITOR: 'vim',
    NODE_OPTIONS: '--inspect',
    ELECTRON_RUN_AS_NODE: '1',
    UNDEFINED: undefined,
  }
  it('keeps what the engine and its tools use', () => {
    expect(engineEnv(parent)).toEqual(used)
  })
  it('never carries a secret value', () => {
    const values = Object.values(engineEnv(parent))
    for (const secret of ['pg-secret', 'cf-secret', 'rt', 't', 'x']) expect(values).not.toContain(secret)
  })
  it('names secrets by the list and by their look', () => {
    for (const n of ['PGPASSWORD', 'CF_TOKEN', 'MY_API_KEY', 'SESSION_SECRET', 'DB_CREDENTIALS'])
      expect(isSecretName(n)).toBe(true)
    for (const n of ['PATH', 'PGHOST', 'KEYBOARD_LAYOUT', 'DOCKER_CERT_PATH'])
      expect(isSecretName(n)).toBe(false)
  })
})

describe('secretsFromEnv', () => {
  it('takes only the secrets Cannonade knows, and only set ones', () => {
    expect(secretsFromEnv({ PGPASSWORD: 'p', CF_TOKEN: '', GITHUB_TOKEN: 'g', PATH: '/bin' })).toEqual({
      PGPASSWORD: 'p',
    })
  })

  it("takes an imported scenario's CANNONADE_SECRET_… values, which engineEnv leaves out", () => {
    const env = {
      CANNONADE_SECRET_COOKIE: 'sid=1',
      CANNONADE_DATA_DIR: '/data',
      CANNONADE_PG_URL: 'postgres://u:p@h/d',
    }
    expect(secretsFromEnv(env)).toEqual({ CANNONADE_SECRET_COOKIE: 'sid=1' })
    expect(engineEnv(env)).not.toHaveProperty('CANNONADE_SECRET_COOKIE')
  })
})
