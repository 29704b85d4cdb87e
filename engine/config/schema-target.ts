// What a RunConfig says about one target: its URL, method, headers, body (literal or generated),
// think time, scenario steps, stack and monitors.
import { z } from 'zod'
import { MONITOR_KINDS, MonitorSpecSchema, STACK_NAME } from './schema-monitor.ts'
import { LIMITS, MAX_REPLICAS } from './limits.ts'
import { HTTP_METHODS, headerName, secretVariables } from './schema-fields.ts'
import { stackEnvIssues } from './stack-env.ts'
import { ExpectSchema } from './status-rule.ts'

export const TargetUrlSchema = z.string().superRefine((value, ctx) => {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    ctx.addIssue({ code: 'custom', message: `is not a valid URL: "${value}"` })
    return
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: `must start with http:// or https://, got "${url.protocol}"` })
  }
  if (!url.hostname) ctx.addIssue({ code: 'custom', message: 'has no host' })
})

/** The largest request body a config may generate or hold (and the sample servers accept): 10 MiB. */
export const MAX_BODY_BYTES = LIMITS.bodyBytes

/**
 * A request body made before the run (engine/config/body.ts), never per request: `size` bytes of
 * text, or a JSON document of exactly `size` bytes. Sweepable like any number
 * (`sweep: { path: targets.0.body.size, values: [1024, 65536] }`), as studies of service payloads vary
 * the request's size, not only the response's.
 */
export const GeneratedBodySchema = z
  .object({
    size: z
      .number({ error: 'must be a number of bytes' })
      // A refinement, not .int(): zod reports .int() as a type mismatch, which the body's union
      // would turn into a message about the whole body instead of its size.
      .refine(Number.isInteger, 'must be a whole number of bytes')
      .min(0, 'must not be negative')
      .max(MAX_BODY_BYTES, `must be at most ${MAX_BODY_BYTES} bytes (10 MiB)`),
    // A refinement, not z.enum, for the same reason as size: the message names this field.
    kind: z
      .string({ error: "must be 'json' or 'text'" })
      .refine((v) => v === 'json' || v === 'text', "must be 'json' or 'text'")
      .default('text'),
  })
  .strict()
  .refine((b) => b.kind !== 'json' || b.size >= 2, {
    message: 'a JSON body needs at least 2 bytes ({})',
    path: ['size'],
  })

/**
 * Think time: a pause between a response and the connection's next request, as a user reads a page
 * before clicking on. Milliseconds, fixed, or drawn uniformly from [min, max] with a generator seeded
 * by `load.seed` (the same seed gives the same pauses). It is never part of a latency: a request's
 * latency starts when it is sent, after the pause.
 */
export const ThinkSchema = z.union(
  [
    z.number().min(0, 'must not be negative').max(600_000, 'must be at most 600000 ms (10 minutes)'),
    z
      .object({
        min: z.number().min(0, 'must not be negative').max(600_000),
        max: z.number().min(0, 'must not be negative').max(600_000, 'must be at most 600000 ms'),
      })
      .strict()
      .refine((t) => t.max >= t.min, { message: 'must not be below min', path: ['max'] }),
  ],
  { error: 'must be milliseconds (a number) or { min, max } in milliseconds' },
)
export type Think = z.output<typeof ThinkSchema>

/** A value captured from one step's response, for `${name}` in the following steps. */
const CaptureSchema = z.union([
  z.object({ json: z.string().min(1) }).strict(),
  z.object({ header: z.string().min(1) }).strict(),
])

/**
 * One request of a scenario (register → login → browse). Path, header values and body may hold
 * `${var}`: a value an earlier step captured, a built-in (BUILTIN_VARIABLES in wire.ts) or one of
 * the target's `secrets`; any other name is refused.
 */
export const StepSchema = z
  .object({
    name: z.string().min(1).max(40),
    method: z.enum(HTTP_METHODS).default('GET'),
    path: z.string().startsWith('/', 'must start with /'),
    headers: z.record(headerName, z.string()).default({}),
    body: z.union([z.string(), z.null()]).default(null),
    capture: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name'), CaptureSchema)
      .default({}),
    /**
     * The statuses that are a success for this step (status-rule.ts), instead of the target's: an
     * answer outside them is an `unexpected status` error and ends the pass, which starts over.
     */
    expect: ExpectSchema.optional(),
    /** The older form of `expect: { status: [N] }` (configs and templates that say it still run). */
    expectStatus: z.number().int().min(100).max(599).optional(),
    /**
     * Run once per connection, before the loop of the other steps (register and log in once, then
     * browse): its captures stay for every pass of the loop. Once-steps come first.
     */
    once: z.boolean().default(false),
    /** Think time after this step's response, instead of the target's. */
    think: ThinkSchema.optional(),
  })
  .strict()
  .refine((s) => s.expect === undefined || s.expectStatus === undefined, {
    message: 'says expect and expectStatus: keep expect.status only',
    path: ['expectStatus'],
  })

/** A bundled stack this target runs on; `env` is what a sweep may change (POOL_SIZE…). */
export const TargetStackSchema = z
  .object({
    name: z.string().regex(STACK_NAME, 'must be a bundled stack name like node-http'),
    native: z.boolean().default(false),
    env: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
    /** App instances behind a load balancer (Docker); 1 = the app alone. */
    replicas: z.number().int('must be a whole number').min(1).max(MAX_REPLICAS).default(1),
  })
  .strict()
  .refine((s) => !(s.native && s.replicas > 1), {
    message: 'replicas need Docker: a native stack runs one server process',
    path: ['replicas'],
  })
  // Only the variables the stack declares, each of its type (engine/config/stack-env.ts): never
  // NODE_OPTIONS, LD_PRELOAD, PATH or anything else a process reads as code.
  .superRefine((s, ctx) => {
    for (const i of stackEnvIssues(s.name, s.env))
      ctx.addIssue({ code: 'custom', message: i.message, path: ['env', i.key] })
  })

/** How a target is spoken to: HTTP/1.1, HTTP/2 over TLS (agreed by ALPN), HTTP/2 in cleartext (prior knowledge). */
export const PROTOCOLS = ['http1', 'h2', 'h2c'] as const
export type Protocol = (typeof PROTOCOLS)[number]

/** The most concurrent streams per HTTP/2 connection a target may ask for (h2load's -m). */
export const MAX_STREAMS = 1000

/** TLS of an https target: `resume` reuses the session of an earlier handshake (a ticket). */
export const TlsSchema = z
  .object({
    resume: z.boolean({ error: 'must be true or false' }).default(false),
  })
  .strict()

export const TargetSchema = z
  .object({
    name: z
      .string()
      .min(1, 'must not be empty')
      .max(64)
      .regex(/^[A-Za-z0-9][A-Za-z0-9 ._:@+-]*$/, 'may hold letters, digits, space and . _ : @ + -'),
    url: TargetUrlSchema,
    method: z.enum(HTTP_METHODS).default('GET'),
    headers: z.record(headerName, z.string()).default({}),
    /** A literal body, or one generated before the run: `{ size: 65536, kind: json }`. */
    body: z
      .union([z.string(), GeneratedBodySchema, z.null()], {
        error: "must be a string, null, or { size: bytes, kind: 'json' | 'text' }",
      })
      .default(null),
    /**
     * The statuses that are a success (status-rule.ts): codes, ranges ('200-299') or classes
     * ('2xx'); by default 200–399. Any other answer is an `unexpected status` error, its code counted.
     */
    expect: ExpectSchema.optional(),
    /** Accept a self-signed or otherwise unverifiable TLS certificate (https targets). */
    insecure: z.boolean().default(false),
    /** `http1` (default), `h2` (HTTP/2 over TLS, an https URL) or `h2c` (HTTP/2 in cleartext, an http URL). */
    protocol: z
      .enum(PROTOCOLS, { error: `must be one of ${PROTOCOLS.map((p) => `'${p}'`).join(', ')}` })
      .default('http1'),
    /**
     * HTTP/2: concurrent streams per connection (h2load's -m), so that connections × streams
     * requests are in flight; the server's SETTINGS_MAX_CONCURRENT_STREAMS may lower it.
     */
    streams: z
      .number({ error: 'must be a number of streams' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(MAX_STREAMS, `must be at most ${MAX_STREAMS}`)
      .default(1),
    tls: TlsSchema.optional(),
    /** One resource monitor, or several (say docker for CPU and postgres for connections). */
    monitor: z
      .union([MonitorSpecSchema, z.array(MonitorSpecSchema).min(1).max(4)], {
        error: `must be a monitor ({ kind: ${MONITOR_KINDS.map((k) => `'${k}'`).join(' | ')}, … }) or a list of up to 4`,
      })
      .optional(),
    /** A scenario: these requests in order, per connection, instead of `method url`. */
    steps: z.array(StepSchema).min(1).max(50).optional(),
    /**
     * `${name}` in the steps whose value is read from an environment variable when the run starts,
     * never written in the config (a cookie or token an import left out): `{ cookie: CANNONADE_SECRET_COOKIE }`.
     */
    secrets: secretVariables.optional(),
    /** Think time after every response of this target (a step's own `think` wins). */
    think: ThinkSchema.optional(),
    stack: TargetStackSchema.optional(),
    /**
     * This target is one value of a series (a task size, a payload size): comparisons draw such
     * targets as a curve against `value` instead of ranking them against each other.
     */
    series: z
      .object({ name: z.string().min(1).max(64), value: z.number() })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    let https = false
    try {
      https = new URL(t.url).protocol === 'https:'
    } catch {
      return // the URL's own message says why
    }
    if (t.protocol === 'h2' && !https)
      ctx.addIssue({
        code: 'custom',
        path: ['protocol'],
        message: "'h2' is HTTP/2 over TLS: it needs an https:// URL (use 'h2c' for cleartext)",
      })
    if (t.protocol === 'h2c' && https)
      ctx.addIssue({
        code: 'custom',
        path: ['protocol'],
        message: "'h2c' is HTTP/2 in cleartext: it needs an http:// URL (use 'h2' over TLS)",
      })
    if (t.protocol === 'http1' && t.streams > 1)
      ctx.addIssue({
        code: 'custom',
        path: ['streams'],
        message: "streams are HTTP/2's: set protocol 'h2' or 'h2c' (HTTP/1.1 has load.pipelining)",
      })
    if (t.tls && !https) ctx.addIssue({ code: 'custom', path: ['tls'], message: 'needs an https:// URL' })
    if (t.streams > 1 && t.steps)
      ctx.addIssue({
        code: 'custom',
        path: ['streams'],
        message: 'a scenario needs streams 1 (each step waits for the one before)',
      })
    if (t.streams > 1 && t.think !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['streams'],
        message: 'think time needs streams 1 (one request at a time per connection)',
      })
  })
