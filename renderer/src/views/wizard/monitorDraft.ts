// A target's resource monitor as the wizard edits it, and the monitor spec it turns into.
import type {
  CloudFoundryAuth,
  MonitorKind as SpecKind,
  PrometheusMonitorSpec,
  PrometheusPreset,
} from '../../../../engine/config/schema-monitor.ts'
import { clean, type Num } from './clean.ts'

/** A monitor kind of the config, or none. */
export type MonitorKind = 'none' | SpecKind

export interface MonitorDraft {
  kind: MonitorKind
  docker: {
    by: 'container' | 'project' | 'stack'
    container: string
    project: string
    stack: string
    service: string
    /** Each process of the container apart (a cluster's workers, as `top` shows them). */
    processes: boolean
  }
  process: { by: 'pid' | 'port'; pid: Num; port: Num }
  postgres: { by: 'stack' | 'url'; stack: string; url: string; passwordEnv: string }
  cf: {
    api: string
    app: string
    space: string
    grant: CloudFoundryAuth['grant']
    username: string
    passwordEnv: string
    refreshTokenEnv: string
    tokenEnv: string
    skipTlsVerify: boolean
  }
  prometheus: {
    url: string
    by: 'preset' | 'query'
    preset: PrometheusPreset
    query: string
    /** A query's series name (heap_bytes…). */
    name: string
    /** `job=shop, instance=10.0.0.5:8080`: exact label matches. */
    labels: string
    rateWindow: string
    token: 'none' | 'env' | 'file'
    tokenEnv: string
    tokenFile: string
    skipTlsVerify: boolean
  }
  kubernetes: { namespace: string; selector: string }
  /** More monitors of the target, as the config had them (a postgres one, say): kept, not edited here. */
  more: unknown[]
  /**
   * The target URL for which the user chose to keep a monitor that watches a stack on another port
   * (./monitorFollow.ts): not asked again until the URL changes.
   */
  keptFor?: string
}

export function emptyMonitor(): MonitorDraft {
  return {
    kind: 'none',
    docker: { by: 'container', container: '', project: '', stack: '', service: '', processes: false },
    process: { by: 'port', pid: undefined, port: undefined },
    postgres: { by: 'stack', stack: '', url: '', passwordEnv: 'PGPASSWORD' },
    cf: {
      api: '',
      app: '',
      space: '',
      grant: 'password',
      username: '',
      passwordEnv: 'CF_PASSWORD',
      refreshTokenEnv: 'CF_REFRESH_TOKEN',
      tokenEnv: 'CF_TOKEN',
      skipTlsVerify: false,
    },
    prometheus: {
      url: '',
      by: 'preset',
      preset: 'container',
      query: '',
      name: '',
      labels: '',
      rateWindow: '',
      token: 'none',
      tokenEnv: 'PROMETHEUS_TOKEN',
      tokenFile: '',
      skipTlsVerify: false,
    },
    kubernetes: { namespace: '', selector: '' },
    more: [],
  }
}

/** `job=shop, pod="web-1"` → { job: 'shop', pod: 'web-1' }; an entry without `=` keeps its text as a name the schema refuses. */
export function parseLabels(text: string): Record<string, string> | undefined {
  const out: Record<string, string> = {}
  for (const entry of text.split(/[,\n]/)) {
    const e = entry.trim()
    if (e === '') continue
    const eq = e.indexOf('=')
    const key = (eq < 0 ? e : e.slice(0, eq)).trim()
    const raw = eq < 0 ? '' : e.slice(eq + 1).trim()
    out[key] = /^".*"$/.test(raw) ? raw.slice(1, -1) : raw
  }
  return Object.keys(out).length ? out : undefined
}

/** A prometheus spec into the draft's fields ("run again", templates). */
export function prometheusFromConfig(
  blank: MonitorDraft['prometheus'],
  m: PrometheusMonitorSpec,
): MonitorDraft['prometheus'] {
  return {
    ...blank,
    url: m.url,
    by: m.query !== undefined ? 'query' : 'preset',
    preset: m.preset ?? blank.preset,
    query: m.query ?? '',
    name: m.name ?? '',
    labels: labelsText(m.labels),
    rateWindow: m.rateWindow ?? '',
    token: m.tokenEnv !== undefined ? 'env' : m.tokenFile !== undefined ? 'file' : 'none',
    tokenEnv: m.tokenEnv ?? blank.tokenEnv,
    tokenFile: m.tokenFile ?? '',
    skipTlsVerify: m.skipTlsVerify ?? false,
  }
}

/** The labels of a spec as the wizard's field shows them. */
export function labelsText(labels: Record<string, string> | undefined): string {
  return Object.entries(labels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(', ')
}

/** The target's `monitor`: the edited one, and any more it had, as a list when there are several. */
export function monitorInput(m: MonitorDraft): unknown {
  const first = primaryInput(m)
  const all = [...(first ? [first] : []), ...m.more]
  return all.length === 0 ? undefined : all.length === 1 ? all[0] : all
}

function primaryInput(m: MonitorDraft): Record<string, unknown> | undefined {
  switch (m.kind) {
    case 'none':
      return undefined
    case 'docker': {
      const processes = m.docker.processes || undefined
      return m.docker.by === 'container'
        ? clean({ kind: 'docker', container: m.docker.container, processes })
        : m.docker.by === 'stack'
          ? clean({
              kind: 'docker',
              stack: m.docker.stack,
              service: m.docker.service.trim() || undefined,
              processes,
            })
          : clean({
              kind: 'docker',
              project: m.docker.project,
              service: m.docker.service.trim() || undefined,
              processes,
            })
    }
    case 'process':
      return m.process.by === 'pid'
        ? { kind: 'process', pid: m.process.pid }
        : { kind: 'process', port: m.process.port }
    case 'cloudfoundry': {
      const c = m.cf
      const auth =
        c.grant === 'password'
          ? clean({ grant: 'password', username: c.username, passwordEnv: c.passwordEnv.trim() || undefined })
          : c.grant === 'refresh'
            ? clean({ grant: 'refresh', refreshTokenEnv: c.refreshTokenEnv.trim() || undefined })
            : clean({ grant: 'token', tokenEnv: c.tokenEnv.trim() || undefined })
      return clean({
        kind: 'cloudfoundry',
        api: c.api,
        app: c.app,
        space: c.space.trim() || undefined,
        skipTlsVerify: c.skipTlsVerify || undefined,
        auth,
      })
    }
    case 'postgres':
      return m.postgres.by === 'stack'
        ? { kind: 'postgres', stack: m.postgres.stack }
        : clean({
            kind: 'postgres',
            url: m.postgres.url,
            passwordEnv: m.postgres.passwordEnv.trim() || undefined,
          })
    case 'prometheus': {
      const p = m.prometheus
      return clean({
        kind: 'prometheus',
        url: p.url,
        ...(p.by === 'preset' ? { preset: p.preset } : { query: p.query, name: p.name.trim() || undefined }),
        labels: parseLabels(p.labels),
        rateWindow: p.by === 'preset' ? p.rateWindow.trim() || undefined : undefined,
        tokenEnv: p.token === 'env' ? p.tokenEnv.trim() : undefined,
        tokenFile: p.token === 'file' ? p.tokenFile.trim() : undefined,
        skipTlsVerify: p.skipTlsVerify || undefined,
      })
    }
    case 'kubernetes':
      return clean({
        kind: 'kubernetes',
        namespace: m.kubernetes.namespace.trim() || undefined,
        selector: m.kubernetes.selector,
      })
    default:
      // Every kind above: a new monitor kind is a compile error here until it is turned into a spec.
      return m.kind satisfies never
  }
}

/** The edited monitor alone (what the Test button tries). */
export function monitorSpec(m: MonitorDraft): unknown {
  return primaryInput(m)
}
