import { z } from 'zod'
import { SECRET_NAMES } from './secrets.ts'
import { issueMessage } from './issue-words.ts'

/*
 * What a target's `monitor` field may hold. Every message names the field it is about, because
 * the CLI prints them as they are ("exit 2, with a message naming the field"). Objects are
 * strict so that a typo ("contianer") is an error, not a silently unmonitored target.
 */

const SECRET_KEYS = new Set(['password', 'token', 'refreshToken', 'refresh_token', 'accessToken'])

function strict<T extends z.core.$ZodLooseShape>(shape: T, where: string) {
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return undefined
      const keys = issue.keys.map((k) => `${where}.${k}`).join(', ')
      const secret = issue.keys.some((k) => SECRET_KEYS.has(k))
        ? ' (secrets are never stored in the config: pass them as secrets or name an environment variable with passwordEnv / refreshTokenEnv / tokenEnv)'
        : ''
      return `unknown field ${keys}${secret}`
    },
  })
}

/** "'a', 'b' or 'c'": the values a message offers, taken from the schemas that accept them. */
function quotedChoice(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`)
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : (quoted[0] ?? '')
}

const name = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(1, `${field} must not be empty`)

/**
 * A secret's variable: only one the user named for Cannonade (the names the desktop app's secret
 * store offers, or a CANNONADE_ prefix). Any name at all would let a config (a shared template,
 * a run to "run again") send HOME's cloud token or AWS_SECRET_ACCESS_KEY to a server it names.
 */
const envName = (field: string) =>
  z
    .string({ error: `${field} must be a string naming an environment variable` })
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, `${field} must be an environment variable name like CF_PASSWORD`)
    .refine(
      isCannonadeSecretName,
      `${field} must be one of ${SECRET_NAMES.join(', ')} or start with CANNONADE_ (variables named for Cannonade)`,
    )

export function isCannonadeSecretName(name: string): boolean {
  return (SECRET_NAMES as readonly string[]).includes(name) || /^CANNONADE_[A-Za-z0-9_]+$/.test(name)
}

/** 127.0.0.0/8, ::1, localhost: plain http stays on this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
}

/** Where credentials are sent: https, or http to this machine only (a lab's stand-in). */
export function secureEnough(url: string): boolean {
  try {
    const u = new URL(url)
    return u.protocol === 'https:' || (u.protocol === 'http:' && isLoopbackHost(u.hostname))
  } catch {
    return false
  }
}

const httpUrl = (field: string) =>
  z
    .url({ protocol: /^https?$/, error: `${field} must be an http(s) URL, e.g. https://api.example.com` })
    .refine(
      secureEnough,
      `${field} must be https:// (credentials are sent there; plain http only to 127.0.0.1 or localhost)`,
    )

export const DockerMonitorSpecSchema = strict(
  {
    kind: z.literal('docker'),
    container: name('container').optional(),
    project: name('project').optional(),
    /** A bundled stack (node-http…): its compose project in this data folder, app service by default. */
    stack: name('stack').optional(),
    service: name('service').optional(),
    socketPath: name('socketPath').optional(),
    /** Each process of each container as its own instance (`docker top` + this machine's /proc). */
    processes: z.boolean({ error: 'processes must be true or false' }).optional(),
  },
  'monitor',
)
  .refine((s) => [s.container, s.project, s.stack].filter((x) => x !== undefined).length === 1, {
    message:
      'set exactly one of container (a name or id), project (a compose project) or stack (a bundled stack)',
    path: ['container'],
  })
  .refine((s) => s.service === undefined || s.container === undefined, {
    message: 'service needs project or stack (it selects one service of a compose project)',
    path: ['service'],
  })

export const ProcessMonitorSpecSchema = strict(
  {
    kind: z.literal('process'),
    pid: z.int({ error: 'pid must be an integer' }).positive('pid must be positive').optional(),
    port: z
      .int({ error: 'port must be an integer' })
      .min(1, 'port must be between 1 and 65535')
      .max(65535, 'port must be between 1 and 65535')
      .optional(),
    /** Each process of the tree as its own instance (a cluster's workers), not only their sum. */
    tree: z.boolean({ error: 'tree must be true or false' }).optional(),
  },
  'monitor',
).refine((s) => (s.pid === undefined) !== (s.port === undefined), {
  message: 'set exactly one of pid or port (the TCP port the process listens on)',
  path: ['pid'],
})

const PasswordAuthSchema = strict(
  {
    grant: z.literal('password'),
    uaa: httpUrl('auth.uaa').optional(),
    username: name('auth.username'),
    passwordEnv: envName('auth.passwordEnv').optional(),
    clientId: name('auth.clientId').optional(),
  },
  'auth',
)

const RefreshAuthSchema = strict(
  {
    grant: z.literal('refresh'),
    uaa: httpUrl('auth.uaa').optional(),
    refreshTokenEnv: envName('auth.refreshTokenEnv').optional(),
    clientId: name('auth.clientId').optional(),
  },
  'auth',
)

const TokenAuthSchema = strict(
  {
    grant: z.literal('token'),
    tokenEnv: envName('auth.tokenEnv').optional(),
  },
  'auth',
)

const AUTHS = [PasswordAuthSchema, RefreshAuthSchema, TokenAuthSchema] as const
export const CloudFoundryAuthSchema = z.discriminatedUnion('grant', AUTHS, {
  error: `auth.grant must be ${quotedChoice(AUTHS.map((a) => a.shape.grant.value))}`,
})

export const CloudFoundryMonitorSpecSchema = strict(
  {
    kind: z.literal('cloudfoundry'),
    api: httpUrl('api'),
    app: name('app'),
    space: name('space').optional(),
    skipTlsVerify: z.boolean({ error: 'skipTlsVerify must be true or false' }).optional(),
    auth: CloudFoundryAuthSchema,
  },
  'monitor',
)

export const PostgresMonitorSpecSchema = strict(
  {
    kind: z.literal('postgres'),
    /** postgres://user@host:port/db; the password comes from passwordEnv, never from the config. */
    url: z
      .string({ error: 'url must be a postgres:// URL' })
      .refine((u) => {
        try {
          const p = new URL(u)
          return (p.protocol === 'postgres:' || p.protocol === 'postgresql:') && p.hostname !== ''
        } catch {
          return false
        }
      }, 'url must be a postgres:// URL, e.g. postgres://app@127.0.0.1:5432/shop')
      .refine((u) => {
        try {
          return new URL(u).password === ''
        } catch {
          return true
        }
      }, 'url must not hold a password (secrets are never stored in the config): name an environment variable with passwordEnv')
      .optional(),
    /** A bundled stack: its own PostgreSQL (the container's published port, or a native stack's cluster). */
    stack: name('stack').optional(),
    passwordEnv: envName('passwordEnv').optional(),
  },
  'monitor',
).refine((s) => (s.url === undefined) !== (s.stack === undefined), {
  message: 'set exactly one of url (a postgres:// URL) or stack (a bundled stack)',
  path: ['url'],
})

const MONITORS = [
  DockerMonitorSpecSchema,
  ProcessMonitorSpecSchema,
  CloudFoundryMonitorSpecSchema,
  PostgresMonitorSpecSchema,
] as const
export const MonitorSpecSchema = z.discriminatedUnion('kind', MONITORS, {
  error: `monitor.kind must be ${quotedChoice(MONITORS.map((m) => m.shape.kind.value))}`,
})

export type MonitorSpec = z.infer<typeof MonitorSpecSchema>
export type MonitorKind = MonitorSpec['kind']
export type DockerMonitorSpec = z.infer<typeof DockerMonitorSpecSchema>
export type ProcessMonitorSpec = z.infer<typeof ProcessMonitorSpecSchema>
export type CloudFoundryMonitorSpec = z.infer<typeof CloudFoundryMonitorSpecSchema>
export type PostgresMonitorSpec = z.infer<typeof PostgresMonitorSpecSchema>
export type CloudFoundryAuth = z.infer<typeof CloudFoundryAuthSchema>

/** One line per problem, each starting with the field path, e.g. "monitor.auth.username: …". */
export function formatSpecIssues(error: z.ZodError, prefix = 'monitor'): string {
  return error.issues
    .map((i) => `${[prefix, ...i.path.map(String)].join('.')}: ${issueMessage(i)}`)
    .join('\n')
}
