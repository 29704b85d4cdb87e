// A target's resource monitor as the wizard edits it, and the monitor spec it turns into.
import type { CloudFoundryAuth, MonitorKind as SpecKind } from '../../../../engine/config/schema-monitor.ts'
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
    more: [],
  }
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
    default:
      // Every kind above: a new monitor kind is a compile error here until it is turned into a spec.
      return m.kind satisfies never
  }
}

/** The edited monitor alone (what the Test button tries). */
export function monitorSpec(m: MonitorDraft): unknown {
  return primaryInput(m)
}
