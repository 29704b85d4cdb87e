// A monitor through the wizard and back, for every kind, from its form alone (monitorDraft.ts over
// engine/config/monitor-form.ts): a spec into the draft ("run again", a template) gives the same
// spec again, each choice of a kind ("select by") found from what the spec holds; what a user
// types goes into the spec as before (optional fields trimmed or left out, the rest as typed for
// the schema to judge); a field a choice hides keeps its value; an older saved draft gets the
// kinds and fields it lacks.
import { describe, expect, it } from 'vitest'
import { fieldsOf, MONITOR_FORMS, pathOf } from '#engine/config/monitor-form.ts'
import { MonitorSpecSchema, type MonitorSpec } from '#engine/config/schema-monitor.ts'
import {
  emptyMonitor,
  monitorFromSpec,
  monitorInput,
  monitorSpec,
  SPEC_KINDS,
  withDefaults,
  type MonitorDraft,
} from './monitorDraft.ts'

/** Specs of every kind, with each option of each choice. */
const SPECS: MonitorSpec[] = [
  { kind: 'docker', container: 'shop-app-1' },
  { kind: 'docker', container: 'shop-app-1', processes: true },
  { kind: 'docker', project: 'shop', service: 'app' },
  { kind: 'docker', stack: 'node-http' },
  { kind: 'docker', stack: 'node-http', service: 'db' },
  { kind: 'process', port: 8082 },
  { kind: 'process', pid: 4242 },
  {
    kind: 'cloudfoundry',
    api: 'https://api.cf.example.com',
    app: 'shop',
    space: 'prod',
    auth: { grant: 'password', username: 'ops', passwordEnv: 'CF_PASSWORD' },
    skipTlsVerify: true,
  },
  {
    kind: 'cloudfoundry',
    api: 'https://api.cf.example.com',
    app: 'shop',
    auth: { grant: 'password', username: 'ops' },
  },
  {
    kind: 'cloudfoundry',
    api: 'https://api.cf.example.com',
    app: 'shop',
    auth: { grant: 'refresh', refreshTokenEnv: 'CF_REFRESH_TOKEN' },
  },
  { kind: 'cloudfoundry', api: 'https://api.cf.example.com', app: 'shop', auth: { grant: 'token' } },
  { kind: 'postgres', stack: 'node-http' },
  { kind: 'postgres', url: 'postgres://app@127.0.0.1:5432/shop', passwordEnv: 'PGPASSWORD' },
  { kind: 'postgres', url: 'postgres://app@127.0.0.1:5432/shop' },
  {
    kind: 'prometheus',
    url: 'http://127.0.0.1:9090',
    preset: 'jvm',
    labels: { job: 'jvm' },
    rateWindow: '5s',
  },
  { kind: 'prometheus', url: 'http://127.0.0.1:9090', preset: 'host', tokenEnv: 'PROMETHEUS_TOKEN' },
  {
    kind: 'prometheus',
    url: 'https://prom.example.com',
    query: 'sum(rate(http_requests_total[1m]))',
    name: 'requests_per_second',
    tokenFile: '/var/run/secrets/token',
    skipTlsVerify: true,
  },
  { kind: 'kubernetes', selector: 'app=web' },
  { kind: 'kubernetes', selector: 'app=web', namespace: 'shop' },
]

function draftOf(spec: MonitorSpec): MonitorDraft {
  const m = emptyMonitor()
  monitorFromSpec(m, spec)
  return m
}

/** The draft of a kind with some of its values typed in. */
function typed<K extends MonitorSpec['kind']>(kind: K, values: Partial<MonitorDraft[K]>): MonitorDraft {
  const m = emptyMonitor()
  m.kind = kind
  Object.assign(m[kind], values)
  return m
}

describe('a monitor through the wizard', () => {
  it('comes back from the draft as the spec it was, for every kind and every choice', () => {
    for (const spec of SPECS) {
      expect(MonitorSpecSchema.safeParse(spec).error, JSON.stringify(spec)).toBeUndefined()
      expect(monitorSpec(draftOf(spec)), JSON.stringify(spec)).toEqual(spec)
    }
    // Every kind, and every option of every choice the spec has no key for, is among them.
    expect(new Set(SPECS.map((s) => s.kind))).toEqual(new Set(SPEC_KINDS))
    for (const kind of SPEC_KINDS)
      for (const choice of fieldsOf(MONITOR_FORMS[kind]))
        if (choice.control === 'select' && pathOf(choice) === null)
          for (const { value } of choice.options)
            expect(
              SPECS.some(
                (s) => s.kind === kind && (draftOf(s)[kind] as Record<string, unknown>)[choice.key] === value,
              ),
              `${kind}: ${choice.key} = ${value}`,
            ).toBe(true)
  })

  it('sends what was typed as before: optional fields trimmed or left out, the rest for the schema to judge', () => {
    expect(monitorSpec(typed('docker', { by: 'project', project: 'shop', service: '  ' }))).toEqual({
      kind: 'docker',
      project: 'shop',
    })
    expect(monitorSpec(typed('docker', { container: '' }))).toEqual({ kind: 'docker', container: '' })
    expect(monitorSpec(typed('process', { by: 'pid' }))).toEqual({ kind: 'process' })
    expect(
      monitorSpec(
        typed('prometheus', {
          url: 'http://127.0.0.1:9090',
          labels: 'job=shop, pod="web-1"',
          token: 'env',
          tokenEnv: ' ',
        }),
      ),
    ).toEqual({
      kind: 'prometheus',
      url: 'http://127.0.0.1:9090',
      labels: { job: 'shop', pod: 'web-1' },
      preset: 'container',
      tokenEnv: '',
    })
    expect(
      monitorSpec(
        typed('cloudfoundry', {
          api: 'https://api',
          app: ' shop ',
          grant: 'token',
          tokenEnv: ' CF_TOKEN ',
          space: ' ',
        }),
      ),
    ).toEqual({
      kind: 'cloudfoundry',
      api: 'https://api',
      app: ' shop ',
      auth: { grant: 'token', tokenEnv: 'CF_TOKEN' },
    })
    expect(monitorSpec(typed('kubernetes', { selector: 'app=web', namespace: ' ' }))).toEqual({
      kind: 'kubernetes',
      selector: 'app=web',
    })
  })

  it('keeps what a hidden field holds, and sends only what the choices show', () => {
    // A postgres monitor of a stack keeps the password variable it starts with, for a URL later.
    const m = draftOf({ kind: 'postgres', stack: 'node-http' })
    expect(m.postgres.passwordEnv).toBe('PGPASSWORD')
    m.postgres.by = 'url'
    m.postgres.url = 'postgres://app@db/shop'
    expect(monitorSpec(m)).toEqual({
      kind: 'postgres',
      url: 'postgres://app@db/shop',
      passwordEnv: 'PGPASSWORD',
    })
    // A query's name is not sent with a preset.
    const p = draftOf({ kind: 'prometheus', url: 'http://127.0.0.1:9090', query: 'up', name: 'up_ratio' })
    p.prometheus.by = 'preset'
    expect(monitorSpec(p)).toEqual({ kind: 'prometheus', url: 'http://127.0.0.1:9090', preset: 'container' })
    // Switching kinds loses nothing, and more monitors of the config ride along.
    p.kind = 'none'
    p.more = [{ kind: 'process', pid: 1 }]
    expect(monitorInput(p)).toEqual({ kind: 'process', pid: 1 })
    p.kind = 'prometheus'
    expect(monitorInput(p)).toEqual([
      { kind: 'prometheus', url: 'http://127.0.0.1:9090', preset: 'container' },
      { kind: 'process', pid: 1 },
    ])
  })

  it('fills in what an older saved draft lacks: a kind, a field', () => {
    const old = {
      kind: 'docker',
      docker: { by: 'stack', stack: 'node-http' },
      more: [],
    } as unknown as MonitorDraft
    const m = withDefaults(old)
    expect(m.docker).toEqual({ ...emptyMonitor().docker, by: 'stack', stack: 'node-http' })
    expect(m.cloudfoundry).toEqual(emptyMonitor().cloudfoundry)
    expect(monitorSpec(m)).toEqual({ kind: 'docker', stack: 'node-http' })
  })

  it('starts every field as its form says: the first option of a choice, a text field empty or its initial value', () => {
    const m = emptyMonitor()
    for (const kind of SPEC_KINDS)
      for (const f of fieldsOf(MONITOR_FORMS[kind])) {
        const v = (m[kind] as Record<string, unknown>)[f.key]
        const want =
          f.control === 'select'
            ? f.options[0]!.value
            : f.control === 'check'
              ? false
              : f.control === 'number'
                ? undefined
                : (f.initial ?? '')
        expect(v, `${kind}.${f.key} (${pathOf(f) ?? 'a choice'})`).toBe(want)
      }
  })
})
