// A Cloud Foundry monitor sends a password: only over https (or to this machine), and only from a
// variable the user named for Cannonade. Any other variable name or a plain-http API or UAA is
// refused naming the field, and a UAA the Cloud Controller names is held to the same rule before
// anything is posted to it.
import { afterEach, describe, expect, it } from 'vitest'
import { FakeCloudFoundry } from '../testing/cf-fake.ts'
import { CloudFoundryMonitor } from './cloudfoundry.ts'
import {
  CloudFoundryMonitorSpecSchema,
  formatSpecIssues,
  type CloudFoundryMonitorSpec,
} from '../config/schema-monitor.ts'
import { MonitorError } from './types.ts'

const base = {
  kind: 'cloudfoundry',
  api: 'https://api.cf.example',
  app: 'ads',
  auth: { grant: 'password', username: 'alice' },
}

describe('the spec', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['an http API elsewhere', { api: 'http://api.cf.example' }, 'monitor.api'],
    ['an http API on a LAN address', { api: 'http://10.0.0.5' }, 'monitor.api'],
    ['an http UAA elsewhere', { auth: { ...base.auth, uaa: 'http://uaa.cf.example' } }, 'monitor.auth.uaa'],
    ['HOME as the password', { auth: { ...base.auth, passwordEnv: 'HOME' } }, 'monitor.auth.passwordEnv'],
    [
      'AWS_SECRET_ACCESS_KEY as the password',
      { auth: { ...base.auth, passwordEnv: 'AWS_SECRET_ACCESS_KEY' } },
      'monitor.auth.passwordEnv',
    ],
    [
      'GITHUB_TOKEN as the token',
      { auth: { grant: 'token', tokenEnv: 'GITHUB_TOKEN' } },
      'monitor.auth.tokenEnv',
    ],
    [
      'SSH_AUTH_SOCK as the refresh token',
      { auth: { grant: 'refresh', refreshTokenEnv: 'SSH_AUTH_SOCK' } },
      'monitor.auth.refreshTokenEnv',
    ],
    [
      'a lowercase cannonade_ name',
      { auth: { ...base.auth, passwordEnv: 'cannonade_pw' } },
      'monitor.auth.passwordEnv',
    ],
  ])('refuses %s, naming the field', (_name, over, field) => {
    const r = CloudFoundryMonitorSpecSchema.safeParse({ ...base, ...over })
    expect(r.success).toBe(false)
    expect(formatSpecIssues(r.error!)).toMatch(new RegExp(`^${field.replaceAll('.', '\\.')}: `, 'm'))
  })

  it.each<[string, Record<string, unknown>]>([
    ['https', {}],
    ['http to 127.0.0.1 (a local stand-in)', { api: 'http://127.0.0.1:9000' }],
    [
      'http to localhost and ::1',
      { api: 'http://localhost:9000', auth: { ...base.auth, uaa: 'http://[::1]:9001' } },
    ],
    ['CF_PASSWORD', { auth: { ...base.auth, passwordEnv: 'CF_PASSWORD' } }],
    ['a CANNONADE_ name', { auth: { ...base.auth, passwordEnv: 'CANNONADE_LAB_CF_PASSWORD' } }],
    ['CF_TOKEN', { auth: { grant: 'token', tokenEnv: 'CF_TOKEN' } }],
  ])('accepts %s', (_name, over) => {
    expect(CloudFoundryMonitorSpecSchema.safeParse({ ...base, ...over }).success).toBe(true)
  })
})

describe('at run time', () => {
  const fakes: FakeCloudFoundry[] = []
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((f) => f.close()))
  })

  it('posts no password to a plain-http UAA the Cloud Controller names', async () => {
    const cf = new FakeCloudFoundry()
    fakes.push(cf)
    cf.addApp({ name: 'ads', space: 'dev', instances: [{ state: 'RUNNING', cpu: 0.1, mem: 1e6 }] })
    await cf.start()
    // A UAA elsewhere over plain http (.invalid never resolves: nothing could be sent even by mistake).
    cf.uaaUrl = 'http://uaa.cf.invalid'
    const spec: CloudFoundryMonitorSpec = {
      kind: 'cloudfoundry',
      api: cf.url,
      app: 'ads',
      auth: { grant: 'password', username: 'alice' },
    }
    const error = await new CloudFoundryMonitor(spec, 'node', { password: 's3cret' }, 100)
      .start(
        () => {},
        () => {},
      )
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MonitorError)
    expect((error as MonitorError).message).toMatch(/UAA at http:\/\/uaa\.cf\.invalid is not https/)
    expect(cf.count(/oauth\/token/)).toBe(0)
  })

  it('reads no variable outside the allowed names, even from a spec built in code', async () => {
    const spec = {
      kind: 'cloudfoundry',
      api: 'https://api.cf.invalid',
      app: 'ads',
      auth: { grant: 'password', username: 'alice', passwordEnv: 'HOME' },
    } as CloudFoundryMonitorSpec
    const error = await new CloudFoundryMonitor(spec, 'node', {}, 100)
      .start(
        () => {},
        () => {},
      )
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MonitorError)
    expect((error as MonitorError).message).toMatch(/HOME is not a variable named for Cannonade/)
  })
})
