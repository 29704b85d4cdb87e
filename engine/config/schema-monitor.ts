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
        ? ' (secrets are never stored in the config: pass them as secrets or name an environment variable with passwordEnv / refreshTokenEnv / tokenEnv, or a file with tokenFile)'
        : ''
      return `unknown field ${keys}${secret}`
    },
  })
}

/** "'a', 'b' or 'c'": the values a message offers, taken from the schemas that accept them. */
export function quotedChoice(values: readonly string[]): string {
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

/**
 * Docker's own grammar for names, checked before any call: a name such as `.`, `..` or `../x`
 * would become a path of the Engine API URL (docker-modem then follows a redirect elsewhere).
 * A container is a name (`[a-zA-Z0-9][a-zA-Z0-9_.-]*`, an optional leading `/`) or a hex id.
 */
export const DOCKER_CONTAINER_NAME = /^\/?[a-zA-Z0-9][a-zA-Z0-9_.-]{0,254}$/
/** A compose project (and service): what `docker compose -p` accepts. */
export const COMPOSE_PROJECT_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/
/** A compose service name: compose's grammar for service keys. */
export const COMPOSE_SERVICE_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$/
/** A bundled stack's name, as targets/stacks.json spells them (node-http…). */
export const STACK_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/

const dockerName = (field: string, grammar: RegExp, like: string) =>
  z.string({ error: `${field} must be a string` }).regex(grammar, `${field} must be ${like}`)

export const DockerMonitorSpecSchema = strict(
  {
    kind: z.literal('docker'),
    container: dockerName(
      'container',
      DOCKER_CONTAINER_NAME,
      "a Docker container name or id (letters, digits, '_', '.', '-', starting with a letter or digit; at most 255)",
    ).optional(),
    project: dockerName(
      'project',
      COMPOSE_PROJECT_NAME,
      "a compose project name (lowercase letters, digits, '_', '-', starting with a letter or digit; at most 63)",
    ).optional(),
    /** A bundled stack (node-http…): its compose project in this data folder, app service by default. */
    stack: dockerName('stack', STACK_NAME, 'a bundled stack name like node-http').optional(),
    service: dockerName(
      'service',
      COMPOSE_SERVICE_NAME,
      "a compose service name (letters, digits, '_', '.', '-'; at most 63)",
    ).optional(),
    socketPath: z
      .string({ error: 'socketPath must be a path' })
      .max(4096, 'socketPath must be at most 4096 characters')
      .refine(
        (p) => p.startsWith('/') && ![...p].some((c) => c.charCodeAt(0) < 0x20),
        'socketPath must be an absolute path to the Docker socket (no control characters)',
      )
      .optional(),
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
    stack: dockerName('stack', STACK_NAME, 'a bundled stack name like node-http').optional(),
    passwordEnv: envName('passwordEnv').optional(),
  },
  'monitor',
).refine((s) => (s.url === undefined) !== (s.stack === undefined), {
  message: 'set exactly one of url (a postgres:// URL) or stack (a bundled stack)',
  path: ['url'],
})

/** What a `prometheus` monitor's presets read (engine/monitor/prometheus-presets.ts has their PromQL). */
export const PROMETHEUS_PRESETS = ['container', 'host', 'jvm', 'nodejs'] as const

const PROM_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/
const PROM_DURATION = /^(\d+(ms|s|m|h|d|w|y))+$/
/** RFC 6750's b64token: what a bearer token file may hold (one line, nothing else). */
export const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/

export const PrometheusMonitorSpecSchema = strict(
  {
    kind: z.literal('prometheus'),
    /** The Prometheus server (or anything serving its HTTP API under /api/v1: Thanos, Mimir…). */
    url: z
      .url({
        protocol: /^https?$/,
        error: 'url must be the http(s) URL of a Prometheus server, e.g. http://127.0.0.1:9090',
      })
      .refine((u) => {
        try {
          const p = new URL(u)
          return p.username === '' && p.password === ''
        } catch {
          return true
        }
      }, 'url must not hold a user or password (secrets are never stored in the config): name a token with tokenEnv or tokenFile'),
    /** Any PromQL: each series it returns is an instance of the target. */
    query: z
      .string({ error: 'query must be a PromQL expression' })
      .trim()
      .min(1, 'query must not be empty')
      .max(4000, 'query must be at most 4000 characters')
      .optional(),
    preset: z
      .enum(PROMETHEUS_PRESETS, { error: `preset must be ${quotedChoice(PROMETHEUS_PRESETS)}` })
      .optional(),
    /** Exact label matches that pick the target's series: added to a preset's selectors, required of a query's series. */
    labels: z
      .record(
        z
          .string()
          .regex(PROM_NAME, 'labels: a label name is letters, digits and _ (not starting with a digit)'),
        z
          .string({ error: 'labels: a label value must be a string' })
          .max(1000, 'labels: a value is at most 1000 characters'),
      )
      .refine((l) => Object.keys(l).length <= 20, 'labels: at most 20')
      .optional(),
    /** The name of a query's series on charts and in exports; Prometheus' unit suffixes (_bytes, _seconds, _ratio) format it. */
    name: z
      .string({ error: 'name must be a string' })
      .regex(PROM_NAME, 'name must be letters, digits and _, like heap_bytes (not starting with a digit)')
      .max(64, 'name must be at most 64 characters')
      .optional(),
    /** The window of the presets' rate(): at least two scrape intervals (default: none, each scrape's own rate, irate). */
    rateWindow: z
      .string({ error: 'rateWindow must be a Prometheus duration like 30s or 1m' })
      .regex(PROM_DURATION, 'rateWindow must be a Prometheus duration like 30s or 1m')
      .optional(),
    skipTlsVerify: z.boolean({ error: 'skipTlsVerify must be true or false' }).optional(),
    /** A bearer token from a variable named for Cannonade (PROMETHEUS_TOKEN, CANNONADE_…). */
    tokenEnv: envName('tokenEnv').optional(),
    /** A bearer token from a file (a service account's token): one line, nothing but the token. */
    tokenFile: z
      .string({ error: 'tokenFile must be a path' })
      .startsWith('/', 'tokenFile must be an absolute path')
      .max(4096, 'tokenFile must be at most 4096 characters')
      .optional(),
  },
  'monitor',
)
  .refine((s) => (s.query === undefined) !== (s.preset === undefined), {
    message: `set exactly one of query (any PromQL) or preset (${quotedChoice(PROMETHEUS_PRESETS)})`,
    path: ['query'],
  })
  .refine((s) => s.name === undefined || s.query !== undefined, {
    message: "name is a query's series name: presets name their own",
    path: ['name'],
  })
  .refine((s) => s.tokenEnv === undefined || s.tokenFile === undefined, {
    message: 'set at most one of tokenEnv or tokenFile',
    path: ['tokenEnv'],
  })
  .refine((s) => (s.tokenEnv === undefined && s.tokenFile === undefined) || secureEnough(s.url), {
    message: 'url must be https:// when a token is sent (plain http only to 127.0.0.1 or localhost)',
    path: ['url'],
  })

/** A Kubernetes name (DNS-1123 label), as a namespace is. */
const K8S_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/

export const KubernetesMonitorSpecSchema = strict(
  {
    kind: z.literal('kubernetes'),
    /** Default: the kubeconfig context's namespace. */
    namespace: z
      .string({ error: 'namespace must be a string' })
      .regex(K8S_NAME, 'namespace must be a Kubernetes name: lowercase letters, digits and -')
      .max(63, 'namespace must be at most 63 characters')
      .optional(),
    /** A label selector, as kubectl -l takes it: app=shop,tier in (web,api). */
    selector: z
      .string({ error: 'selector must be a label selector like app=shop' })
      .trim()
      .min(1, 'selector must not be empty (every pod of a namespace is rarely one target)')
      .max(1000, 'selector must be at most 1000 characters')
      .regex(/^[A-Za-z0-9_.\-/=!,() ]+$/, 'selector must be a label selector like app=shop or app in (a,b)'),
  },
  'monitor',
)

const MONITORS = [
  DockerMonitorSpecSchema,
  ProcessMonitorSpecSchema,
  CloudFoundryMonitorSpecSchema,
  PostgresMonitorSpecSchema,
  PrometheusMonitorSpecSchema,
  KubernetesMonitorSpecSchema,
] as const
/** Every monitor kind, in the order messages list them. */
export const MONITOR_KINDS = MONITORS.map((m) => m.shape.kind.value)
export const MonitorSpecSchema = z.discriminatedUnion('kind', MONITORS, {
  error: `monitor.kind must be ${quotedChoice(MONITOR_KINDS)}`,
})

export type MonitorSpec = z.infer<typeof MonitorSpecSchema>
export type MonitorKind = MonitorSpec['kind']
export type DockerMonitorSpec = z.infer<typeof DockerMonitorSpecSchema>
export type ProcessMonitorSpec = z.infer<typeof ProcessMonitorSpecSchema>
export type CloudFoundryMonitorSpec = z.infer<typeof CloudFoundryMonitorSpecSchema>
export type PostgresMonitorSpec = z.infer<typeof PostgresMonitorSpecSchema>
export type PrometheusMonitorSpec = z.infer<typeof PrometheusMonitorSpecSchema>
export type PrometheusPreset = (typeof PROMETHEUS_PRESETS)[number]
export type KubernetesMonitorSpec = z.infer<typeof KubernetesMonitorSpecSchema>
export type CloudFoundryAuth = z.infer<typeof CloudFoundryAuthSchema>

/** One line per problem, each starting with the field path, e.g. "monitor.auth.username: …". */
export function formatSpecIssues(error: z.ZodError, prefix = 'monitor'): string {
  return error.issues
    .map((i) => `${[prefix, ...i.path.map(String)].join('.')}: ${issueMessage(i)}`)
    .join('\n')
}
