// A URL is enough (issue 28, Must 9): `cannonade run URL [-c N] [-d S | -n N] [--rate R] [-m METHOD]
// [-H 'K: V'] [-b BODY]` and the app's first screen run a one-target config made here, as wrk, oha,
// hey and autocannon take a URL. Pure (the renderer imports it): the config is checked by the same
// schema as a file, and a problem is named by the option the user typed.
import { ConfigError } from './errors.ts'

export interface QuickRun {
  url: string
  connections?: number | undefined
  duration?: number | undefined
  requests?: number | undefined
  rate?: number | undefined
  method?: string | undefined
  /** `K: V` lines, as curl's and wrk's -H take them. */
  headers?: readonly string[] | undefined
  body?: string | undefined
}

/** The defaults of a URL run: 10 connections for 10 s, wrk's own. */
export const QUICK_DEFAULTS = { connections: 10, duration: 10 } as const

/** The option a config field of a URL run came from, for messages. */
export const QUICK_FLAGS: Readonly<Record<string, string>> = {
  'targets.0.url': 'URL',
  'targets.0.method': '-m',
  'targets.0.headers': '-H',
  'targets.0.body': '-b',
  'load.connections': '-c',
  'load.duration': '-d',
  'load.requests': '-n',
  'load.rate': '--rate',
}

/** A target's name from its URL: its host and port, as a target name may hold them. */
export function urlTargetName(url: string): string {
  let host = url
  try {
    host = new URL(url).host
  } catch {
    /* the schema names a bad URL */
  }
  return (
    host
      .replace(/[^A-Za-z0-9 ._:@+-]/g, '')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 64) || 'target'
  )
}

/** `K: V` lines as a header record; a line without a name and a colon is named. */
export function headerLines(lines: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    const name = colon > 0 ? line.slice(0, colon).trim() : ''
    if (!name)
      throw new ConfigError([{ field: 'targets.0.headers', message: `"${line}" is not 'Name: value'` }])
    out[name] = line.slice(colon + 1).trim()
  }
  return out
}

/** The one-target config of a URL run, as a config file would hold it (the schema checks it). */
export function quickConfig(q: QuickRun): Record<string, unknown> {
  const method = (q.method ?? 'GET').toUpperCase()
  const name = urlTargetName(q.url)
  const bound =
    q.requests !== undefined ? { requests: q.requests } : { duration: q.duration ?? QUICK_DEFAULTS.duration }
  return {
    version: 1,
    name: `${method} ${q.url}`.slice(0, 200),
    targets: [
      {
        name,
        url: q.url,
        ...(method !== 'GET' ? { method } : {}),
        ...(q.headers?.length ? { headers: headerLines(q.headers) } : {}),
        ...(q.body !== undefined ? { body: q.body } : {}),
      },
    ],
    load: {
      connections: q.connections ?? QUICK_DEFAULTS.connections,
      ...bound,
      ...(q.rate !== undefined ? { rate: q.rate } : {}),
    },
    cooldownSeconds: 0,
  }
}

/** The option a problem of a URL run's config came from: `-c`, `URL`… (the field when none). */
export function quickFlag(field: string): string {
  const hit = Object.keys(QUICK_FLAGS).find((f) => field === f || field.startsWith(`${f}.`))
  return hit ? QUICK_FLAGS[hit]! : field
}
