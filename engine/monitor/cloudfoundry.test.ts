import { execFileSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { FakeCloudFoundry } from '../testing/cf-fake.ts'
import { CloudFoundryMonitor } from './cloudfoundry.ts'
import type { CloudFoundryMonitorSpec } from '../config/schema-monitor.ts'
import { collector } from '../testing/monitor.ts'
import { selfSigned } from '../testing/tls.ts'
import { MonitorError } from './types.ts'
import type { MonitorErrorCode, ResourceSample } from './types.ts'

const fakes: FakeCloudFoundry[] = []
const monitors: CloudFoundryMonitor[] = []
afterEach(async () => {
  await Promise.all(monitors.splice(0).map((m) => m.stop()))
  await Promise.all(fakes.splice(0).map((f) => f.close()))
})

async function fake(setup: (cf: FakeCloudFoundry) => void = () => {}): Promise<FakeCloudFoundry> {
  const cf = new FakeCloudFoundry()
  cf.addApp({ name: 'ads-node', space: 'dev', instances: [{ state: 'RUNNING', cpu: 0.25, mem: 100e6 }] })
  setup(cf)
  fakes.push(cf)
  await cf.start()
  return cf
}

function spec(cf: FakeCloudFoundry, over: Partial<CloudFoundryMonitorSpec> = {}): CloudFoundryMonitorSpec {
  return {
    kind: 'cloudfoundry',
    api: cf.url,
    app: 'ads-node',
    auth: { grant: 'password', username: 'alice' },
    ...over,
  }
}

async function started(s: CloudFoundryMonitorSpec, secrets: Record<string, string> = { password: 's3cret' }) {
  const monitor = new CloudFoundryMonitor(s, 'node', secrets, 100)
  monitors.push(monitor)
  const samples = collector()
  const errors: MonitorError[] = []
  await monitor.start(samples.onSample, (e) => errors.push(e))
  return { monitor, samples, errors }
}

async function failure(s: CloudFoundryMonitorSpec, secrets: Record<string, string> = { password: 's3cret' }) {
  const error: unknown = await new CloudFoundryMonitor(s, 'node', secrets, 100)
    .start(
      () => {},
      () => {},
    )
    .catch((e: unknown) => e)
  expect(error).toBeInstanceOf(MonitorError)
  return error as MonitorError & { code: MonitorErrorCode }
}

const byInstance = (xs: ResourceSample[]) => Object.fromEntries(xs.map((s) => [s.instance, s]))

describe('cloudfoundry monitor', () => {
  it('reports two instances separately, CPU fraction as percent', async () => {
    const cf = await fake((cf) =>
      cf.addApp({
        name: 'ads-java',
        space: 'dev',
        memQuota: 2 ** 30,
        instances: [
          { state: 'RUNNING', cpu: 0.25, mem: 100e6 },
          { state: 'RUNNING', cpu: 1.5, mem: 300e6 },
        ],
      }),
    )
    const { samples, errors } = await started(spec(cf, { app: 'ads-java', space: 'dev' }))
    const first = byInstance(await samples.next(2))
    expect(first['0']).toMatchObject({
      source: 'cloudfoundry',
      target: 'node',
      state: 'RUNNING',
      cpuPercent: 25,
      memoryBytes: 100e6,
      memoryLimitBytes: 2 ** 30,
      cpuLimit: null,
    })
    expect(first['1']).toMatchObject({ cpuPercent: 150, memoryBytes: 300e6 })
    expect(new Set((await samples.next(4)).map((s) => s.instance))).toEqual(new Set(['0', '1']))
    expect(errors).toEqual([])
    // The UAA came from GET / (links), the space name was resolved, the password grant used once.
    expect(cf.log[0]).toBe('GET / 200')
    expect(cf.count(/^GET \/v3\/spaces 200/)).toBe(1)
    expect(cf.count(/password 200/)).toBe(1)
  })

  it('reports crashed and down instances with their state and no usage', async () => {
    const cf = await fake((cf) =>
      cf.addApp({
        name: 'flaky',
        space: 'dev',
        instances: [{ state: 'RUNNING', cpu: 0.1, mem: 5e7 }, { state: 'CRASHED' }, { state: 'DOWN' }],
      }),
    )
    const { samples } = await started(spec(cf, { app: 'flaky' }))
    const first = byInstance(await samples.next(3))
    expect(first['0']).toMatchObject({ state: 'RUNNING', cpuPercent: 10, memoryBytes: 5e7 })
    expect(first['1']).toMatchObject({ state: 'CRASHED', cpuPercent: null, memoryBytes: null })
    expect(first['2']).toMatchObject({
      state: 'DOWN',
      cpuPercent: null,
      memoryBytes: null,
      memoryLimitBytes: 2 ** 30,
    })
  })

  it('refreshes the token before it expires, without a single 401', async () => {
    const cf = await fake((cf) => (cf.tokenLifetimeSeconds = 1))
    const { samples, errors } = await started(spec(cf))
    await samples.next(25) // 2.5 s at 100 ms: two and a half token lifetimes
    expect(cf.count(/refresh_token 200/)).toBeGreaterThanOrEqual(2)
    expect(cf.count(/ 401$/)).toBe(0)
    expect(errors).toEqual([])
  })

  it('answers a 401 by refreshing the token and retrying once', async () => {
    const cf = await fake()
    const { samples, errors } = await started(spec(cf))
    await samples.next(2)
    cf.revokeAccessTokens()
    await samples.next(3)
    expect(cf.count(/stats 401$/)).toBe(1)
    expect(cf.count(/refresh_token 200/)).toBe(1)
    expect(errors).toEqual([]) // the retry succeeded: nothing to report
  })

  it('rejects wrong credentials with code auth and UAA reason', async () => {
    const cf = await fake()
    const error = await failure(spec(cf), { password: 'wrong' })
    expect(error.code).toBe('auth')
    expect(error.message).toMatch(
      /UAA at http:\/\/127\.0\.0\.1:\d+ rejected the credentials of user "alice".*Bad credentials/,
    )
    const missing = await failure(spec(cf), {})
    expect(missing).toMatchObject({
      code: 'auth',
      message: expect.stringMatching(/no password for alice.*CF_PASSWORD/) as unknown,
    })
  })

  it('rejects an unknown app with not-found', async () => {
    const cf = await fake()
    const error = await failure(spec(cf, { app: 'nope' }))
    expect(error.code).toBe('not-found')
    expect(error.message).toMatch(/no app named "nope"/)
  })

  it('uses a refresh token from the secrets and a pasted `cf oauth-token`', async () => {
    const cf = await fake()
    const refresh = await started(
      spec(cf, { auth: { grant: 'refresh', refreshTokenEnv: 'CANNONADE_CF_REFRESH' } }),
      {
        CANNONADE_CF_REFRESH: cf.issueRefreshToken(),
      },
    )
    expect((await refresh.samples.next(1))[0]?.cpuPercent).toBe(25)
    const pasted = await started(spec(cf, { auth: { grant: 'token' } }), {
      token: `bearer ${cf.issueAccessToken()}`,
    })
    expect((await pasted.samples.next(1))[0]?.state).toBe('RUNNING')
    // A pasted token cannot be renewed: a 401 is an auth error that says what to do.
    cf.revokeAccessTokens()
    const error = await failure(spec(cf, { auth: { grant: 'token' } }), {
      token: cf.issueAccessToken().slice(0, 9),
    })
    expect(error).toMatchObject({ code: 'auth', message: expect.stringMatching(/cf oauth-token/) as unknown })
  })

  it('reports an unreachable API', async () => {
    const cf = await fake()
    await cf.close()
    fakes.splice(0)
    const error = await failure(spec(cf))
    expect(error).toMatchObject({
      code: 'unreachable',
      message: expect.stringMatching(/cannot reach .*ECONNREFUSED/) as unknown,
    })
  })

  it.skipIf(!hasOpenssl())('accepts a self-signed certificate only with skipTlsVerify', async () => {
    const cf = new FakeCloudFoundry()
    cf.addApp({ name: 'ads-node', space: 'dev', instances: [{ state: 'RUNNING', cpu: 0.5, mem: 1 }] })
    fakes.push(cf)
    await cf.start(selfSigned())
    const refused = await failure(spec(cf))
    expect(refused).toMatchObject({
      code: 'unreachable',
      message: expect.stringMatching(/skipTlsVerify/) as unknown,
    })
    const { samples } = await started(spec(cf, { skipTlsVerify: true }))
    expect((await samples.next(1))[0]?.cpuPercent).toBe(50)
  })
})

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' })
    return true
  } catch {
    console.warn('[cloudfoundry tests] openssl not found: the self-signed TLS test is skipped')
    return false
  }
}
