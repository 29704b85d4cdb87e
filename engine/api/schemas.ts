// The argument tuple of every channel, as zod schemas, parsed wherever a call enters the engine
// (IPC handler, HTTP route, the engine host itself): a call from a page or the network is untrusted.
import { z } from 'zod'
import type { Channel } from './names.ts'
import { LIMITS, MAX_REPLICAS } from '../config/limits.ts'
import { issueMessage } from '../config/issue-words.ts'
import { pgUrlParts, urlSecret } from '../config/url-secrets.ts'
import { ApiError } from './errors.ts'
import { RUN_STATUSES } from './types.ts'
import { IMPORT_KINDS, MAX_IMPORT_BYTES } from '../import/types.ts'

const runId = z.number().int().positive()
const runIds = z.array(runId).min(1).max(1000)
const studyId = z.number().int().positive()
// Messages follow the argument's name: "runs:tag: tags[0] must be at most 64 characters".
const tag = z
  .string()
  .min(1, 'must not be empty')
  .max(LIMITS.tagLength, `must be at most ${LIMITS.tagLength} characters`)
/** A run's tags and note, bounded as a config and an import bound them (issue 20, item 7). */
const tags = z.array(tag).max(LIMITS.tags, `must hold at most ${LIMITS.tags} tags`)
const note = z
  .string()
  .max(LIMITS.noteLength, `must be at most ${LIMITS.noteLength.toLocaleString('en-US')} characters`)
/** A target's name (engine/config/schema.ts allows 64 characters). */
const targetName = z.string().max(64)

export const RunListQuerySchema = z
  .object({
    search: z.string().max(200).optional(),
    tags: tags.optional(),
    status: z.enum(RUN_STATUSES).optional(),
    target: targetName.optional(),
    limit: z.number().int().min(1).max(1000).default(50),
    offset: z.number().int().min(0).default(0),
  })
  .strict()

export const SampleQuerySchema = z
  .object({
    correlationId: z.string().max(64).optional(),
    target: targetName.optional(),
    order: z.enum(['seq', 'slowest']).default('seq'),
    errorsOnly: z.boolean().default(false),
    limit: z.number().int().min(1).max(10_000).default(100),
    offset: z.number().int().min(0).default(0),
  })
  .strict()

const entryRef = z.object({ runId: runId, target: targetName.min(1) }).strict()

export const CompareQuerySchema = z
  .object({
    /** Two or more runs, or one run whose targets are compared with each other. */
    runIds: runIds,
    /** Within a run, what every other target is held against; across runs, the run others are held against. */
    baseline: entryRef.optional(),
    /** Explicit pairs (baseline, other), instead of pairing by name across runs. */
    pairs: z
      .array(z.object({ baseline: entryRef, other: entryRef }).strict())
      .max(100)
      .optional(),
    /** The practical-equivalence margin, ± %: a smaller difference is "no difference that matters". */
    minEffect: z.number().gt(0, 'must be greater than 0').max(100).default(5),
    /** Show the entries as sizes of one thing (a curve against the value), not as rivals. */
    asSeries: z.boolean().default(false),
  })
  .strict()

/** What `scenarios:import` reads: the source's text and how (engine/import/types.ts ImportOptions). */
export const ImportSourceSchema = z
  .object({
    kind: z.enum(IMPORT_KINDS),
    text: z
      .string()
      .min(1, 'is empty')
      .max(MAX_IMPORT_BYTES, `is over ${MAX_IMPORT_BYTES / 1024 / 1024} MB`),
    base: z.string().max(2000).optional(),
    keepStatic: z.boolean().optional(),
    keepThirdParty: z.boolean().optional(),
    keepConditional: z.boolean().optional(),
    name: z.string().max(200).optional(),
    /** What to call the source in notes: a file's name. */
    source: z.string().max(200).optional(),
  })
  .strict()

/** Settings that hold a URL: none may carry a password (settings are a plain file). */
export const SETTINGS_URL_FIELDS = ['pgExportUrl', 'dockerHost', 'cfApi'] as const

// Where Docker listens, written as DOCKER_HOST is (engine/monitor/docker-host.ts reads it).
const DOCKER_HOST = /^((unix|npipe):\/\/\S*|(tcp|http|https|ssh):\/\/[^\s/]+\/?)$/

/** A text setting; '' is "not set" (a patch with '' removes it). A URL setting holds no password. */
const text = (opts: { check?: { test: (v: string) => boolean; message: string }; url?: boolean } = {}) =>
  z
    .string()
    .trim()
    .max(2000)
    .superRefine((v, ctx) => {
      const where = opts.url ? urlSecret(v) : null
      if (where !== null)
        ctx.addIssue({
          code: 'custom',
          message: `holds a password in ${where}: settings never store one (they are a plain file). Remove it from the URL and give the password as PGPASSWORD (or in the desktop app's secrets) instead`,
        })
      // A secret is the one thing said about a value that holds one.
      else if (v !== '' && opts.check && !opts.check.test(v))
        ctx.addIssue({ code: 'custom', message: opts.check.message })
    })

const SETTINGS = {
  dataDir: text(),
  /** Where docker monitors, stacks and a run's environment find Docker; unset: DOCKER_HOST or the default socket. */
  dockerHost: text({
    url: true,
    check: {
      test: (v) => DOCKER_HOST.test(v),
      message: 'must be a Docker address such as unix:///var/run/docker.sock or tcp://127.0.0.1:2375',
    },
  }),
  pgExportUrl: text({
    url: true,
    check: {
      // Read as pg reads it: a URL pg cannot read would fail at export time instead.
      test: (v) => /^postgres(ql)?:\/\//i.test(v) && pgUrlParts(v) !== null,
      message: 'must be a PostgreSQL URL such as postgres://user@host:5432/database',
    },
  }),
  /** The wizard's default Cloud Foundry API endpoint and user for a new cloudfoundry monitor. */
  cfApi: text({ url: true }),
  cfUsername: text(),
  /**
   * The folder whose files a config may name as secrets (a monitor's tokenFile): any other file is
   * never read for a config (engine/config/files.ts). Unset: CANNONADE_SECRETS_DIR, else none.
   */
  secretsDir: text({
    check: {
      test: (v) => v.startsWith('/') || /^[A-Za-z]:[\\/]/.test(v),
      message:
        'must be an absolute path to a folder (the one holding the files a config may name as secrets)',
    },
  }),
  theme: z.enum(['system', 'light', 'dark']),
  /** Drop the raw samples of runs older than this many days (summaries and series stay). */
  ledgerRetentionDays: z.number().int().min(1).max(3650),
}

export const SettingsSchema = z
  .object({
    dataDir: SETTINGS.dataDir.optional(),
    dockerHost: SETTINGS.dockerHost.optional(),
    pgExportUrl: SETTINGS.pgExportUrl.optional(),
    cfApi: SETTINGS.cfApi.optional(),
    cfUsername: SETTINGS.cfUsername.optional(),
    secretsDir: SETTINGS.secretsDir.optional(),
    theme: SETTINGS.theme.default('system'),
    ledgerRetentionDays: SETTINGS.ledgerRetentionDays.nullable().optional(),
  })
  .strict()

/**
 * What `settings:set` takes: the keys to change. A key set to null (or to an empty text) is
 * removed, so a field the user clears stays cleared instead of keeping its old value.
 */
export const SettingsPatchSchema = z
  .object({
    dataDir: SETTINGS.dataDir.nullable().optional(),
    dockerHost: SETTINGS.dockerHost.nullable().optional(),
    pgExportUrl: SETTINGS.pgExportUrl.nullable().optional(),
    cfApi: SETTINGS.cfApi.nullable().optional(),
    cfUsername: SETTINGS.cfUsername.nullable().optional(),
    secretsDir: SETTINGS.secretsDir.nullable().optional(),
    theme: SETTINGS.theme.nullable().optional(),
    ledgerRetentionDays: SETTINGS.ledgerRetentionDays.nullable().optional(),
  })
  .strict()

/** Argument tuples per channel, parsed at every entry point (IPC handler, HTTP route). */
export const argSchemas = {
  'runs:validate': z.tuple([z.unknown()]),
  'runs:start': z.tuple([
    z.unknown(),
    z
      .object({ allowConcurrent: z.boolean().default(false) })
      .strict()
      .optional(),
  ]),
  'runs:stop': z.tuple([runId]),
  'runs:active': z.tuple([]),
  'runs:machine': z.tuple([]),
  'runs:list': z.tuple([RunListQuerySchema.optional()]),
  'runs:get': z.tuple([runId]),
  'runs:series': z.tuple([
    runId,
    z.object({ maxPoints: z.number().int().min(10).max(100_000).optional() }).optional(),
  ]),
  'runs:resources': z.tuple([runId]),
  'runs:distribution': z.tuple([runId]),
  'runs:samples': z.tuple([runId, SampleQuerySchema.optional()]),
  'runs:compare': z.tuple([CompareQuerySchema]),
  'runs:delete': z.tuple([runId]),
  'runs:tag': z.tuple([runId, tags]),
  'runs:note': z.tuple([runId, note]),
  'runs:ledger': z.tuple([runId]),
  'runs:prune': z.tuple([runId]),
  'studies:list': z.tuple([]),
  'studies:get': z.tuple([studyId]),
  'studies:templates': z.tuple([]),
  'targets:probe': z.tuple([
    z.string().min(1).max(2000),
    z.object({ insecure: z.boolean().default(false) }).optional(),
  ]),
  'scenarios:import': z.tuple([ImportSourceSchema]),
  'stacks:list': z.tuple([]),
  'stacks:up': z.tuple([
    z.string().min(1),
    z
      .object({
        native: z.boolean().default(false),
        replicas: z.number().int().min(1).max(MAX_REPLICAS).optional(),
      })
      .optional(),
  ]),
  'stacks:down': z.tuple([z.string().min(1), z.object({ volumes: z.boolean().default(false) }).optional()]),
  'stacks:status': z.tuple([]),
  'monitor:test': z.tuple([z.unknown()]),
  'exports:pg': z.tuple([runIds, z.object({ url: z.string().min(1) })]),
  'exports:pgTest': z.tuple([z.object({ url: z.string().min(1) })]),
  'exports:csv': z.tuple([runId, z.object({ kind: z.enum(['samples', 'series']).default('samples') })]),
  'exports:json': z.tuple([runIds]),
  'exports:junit': z.tuple([runId]),
  'exports:studyCsv': z.tuple([studyId]),
  'reports:create': z.tuple([
    runIds,
    z
      .object({
        format: z.enum(['pdf', 'html']).default('pdf'),
        compare: CompareQuerySchema.omit({ runIds: true }).optional(),
      })
      .optional(),
  ]),
  'settings:get': z.tuple([]),
  'settings:set': z.tuple([SettingsPatchSchema]),
} as const satisfies Record<Channel, z.ZodTuple>

export type Args<C extends Channel> = z.input<(typeof argSchemas)[C]>

/**
 * Each channel's arguments by name, in order (the Api's parameter names, engine/api/api.ts), so a
 * refusal names the field: "runs:tag: tags[0] …", not "argument 1.0". A channel without arguments
 * has none; an argument past the names is "argument N" (1-based).
 */
export const argNames: { readonly [C in Channel]?: readonly string[] } = {
  'runs:validate': ['config'],
  'runs:start': ['config', 'options'],
  'runs:stop': ['runId'],
  'runs:list': ['query'],
  'runs:get': ['runId'],
  'runs:series': ['runId', 'options'],
  'runs:resources': ['runId'],
  'runs:distribution': ['runId'],
  'runs:samples': ['runId', 'query'],
  'runs:compare': ['query'],
  'runs:delete': ['runId'],
  'runs:tag': ['runId', 'tags'],
  'runs:note': ['runId', 'note'],
  'runs:ledger': ['runId'],
  'runs:prune': ['runId'],
  'studies:get': ['studyId'],
  'targets:probe': ['url', 'options'],
  'scenarios:import': ['source'],
  'stacks:up': ['name', 'options'],
  'stacks:down': ['name', 'options'],
  'monitor:test': ['spec'],
  'exports:pg': ['runIds', 'options'],
  'exports:pgTest': ['options'],
  'exports:csv': ['runId', 'options'],
  'exports:json': ['runIds'],
  'exports:junit': ['runId'],
  'exports:studyCsv': ['studyId'],
  'reports:create': ['runIds', 'options'],
  'settings:set': ['patch'],
}

/**
 * Where an issue is in a call's arguments, in words: `tags[0]`, `query.limit`, `argument 3` for an
 * argument without a name, `the arguments` for the list itself (one too many, or not a list).
 */
export function argumentWhere(names: readonly string[] | undefined, path: readonly PropertyKey[]): string {
  const [first, ...rest] = path
  if (first === undefined) return 'the arguments'
  let where =
    typeof first === 'number' ? (names?.[first] ?? `argument ${first + 1}`) : `argument ${String(first)}`
  for (const key of rest) where += typeof key === 'number' ? `[${key}]` : `.${String(key)}`
  return where
}

export type Settings = z.output<typeof SettingsSchema>
export type SettingsPatch = z.input<typeof SettingsPatchSchema>

/** Parse a channel's arguments; throws ApiError('bad-input') naming the argument. */
export function parseArgs<C extends Channel>(channel: C, args: unknown): z.output<(typeof argSchemas)[C]> {
  const schema = argSchemas[channel] as z.ZodTuple
  const result = schema.safeParse(args)
  if (!result.success) {
    const issue = result.error.issues[0]
    const where = argumentWhere(argNames[channel], issue?.path ?? [])
    throw new ApiError('bad-input', `${channel}: ${where} ${issue ? issueMessage(issue) : 'is invalid'}`)
  }
  return result.data as z.output<(typeof argSchemas)[C]>
}
