// The one contract every transport implements (EXAMPLES.md 1-3): Electron IPC through the preload,
// HTTP + WebSocket in web mode, and direct calls in tests. Channel names are `domain:action` from
// the `channels` map; arguments are parsed with the zod tuples in `argSchemas` wherever they enter.
import { z } from 'zod'
import type { Plan, PreviewPoint } from './config/compile.ts'
import type { RunConfig } from './config/schema.ts'
import type {
  ProgressEvent,
  ResourcePoint,
  RunEndedEvent,
  RunListItem,
  RunSummary,
  SampleRow,
  SeriesPoint,
} from './types.ts'

export const channels = {
  runs: {
    validate: 'runs:validate',
    preview: 'runs:preview',
    start: 'runs:start',
    stop: 'runs:stop',
    active: 'runs:active',
    list: 'runs:list',
    get: 'runs:get',
    series: 'runs:series',
    resources: 'runs:resources',
    samples: 'runs:samples',
    compare: 'runs:compare',
    delete: 'runs:delete',
    tag: 'runs:tag',
    note: 'runs:note',
    ledger: 'runs:ledger',
    prune: 'runs:prune',
  },
  studies: { list: 'studies:list', get: 'studies:get', templates: 'studies:templates' },
  targets: { probe: 'targets:probe' },
  stacks: { list: 'stacks:list', up: 'stacks:up', down: 'stacks:down', status: 'stacks:status' },
  monitor: { test: 'monitor:test' },
  exports: {
    pg: 'exports:pg',
    pgTest: 'exports:pgTest',
    csv: 'exports:csv',
    json: 'exports:json',
    junit: 'exports:junit',
  },
  reports: { create: 'reports:create' },
  settings: { get: 'settings:get', set: 'settings:set' },
} as const

export const events = {
  runProgress: 'runs:progress',
  runEnded: 'runs:ended',
  stackLog: 'stacks:log',
  exportProgress: 'exports:progress',
} as const

type Domains = typeof channels
export type Channel = { [D in keyof Domains]: Domains[D][keyof Domains[D]] }[keyof Domains]

const runId = z.number().int().positive()
const runIds = z.array(runId).min(1)

export const RunListQuerySchema = z
  .object({
    search: z.string().max(200).optional(),
    tags: z.array(z.string()).optional(),
    status: z.enum(['running', 'done', 'aborted', 'failed']).optional(),
    target: z.string().optional(),
    limit: z.number().int().min(1).max(1000).default(50),
    offset: z.number().int().min(0).default(0),
  })
  .strict()

export const SampleQuerySchema = z
  .object({
    correlationId: z.string().max(64).optional(),
    target: z.string().optional(),
    order: z.enum(['seq', 'slowest']).default('seq'),
    errorsOnly: z.boolean().default(false),
    limit: z.number().int().min(1).max(10_000).default(100),
    offset: z.number().int().min(0).default(0),
  })
  .strict()

export const CompareQuerySchema = z
  .object({
    /** Two or more runs, or one run whose targets are compared with each other. */
    runIds: runIds,
    baseline: z.object({ runId: runId, target: z.string() }).optional(),
  })
  .strict()

export const SettingsSchema = z
  .object({
    dataDir: z.string().optional(),
    dockerHost: z.string().optional(),
    pgExportUrl: z.string().optional(),
    cfApi: z.string().optional(),
    cfUsername: z.string().optional(),
    theme: z.enum(['system', 'light', 'dark']).default('system'),
    /** Drop the raw samples of runs older than this many days (summaries and series stay). */
    ledgerRetentionDays: z.number().int().min(1).max(3650).nullable().optional(),
  })
  .strict()

/** Argument tuples per channel, parsed at every entry point (IPC handler, HTTP route). */
export const argSchemas = {
  'runs:validate': z.tuple([z.unknown()]),
  'runs:preview': z.tuple([z.unknown()]),
  'runs:start': z.tuple([z.unknown()]),
  'runs:stop': z.tuple([runId]),
  'runs:active': z.tuple([]),
  'runs:list': z.tuple([RunListQuerySchema.optional()]),
  'runs:get': z.tuple([runId]),
  'runs:series': z.tuple([
    runId,
    z.object({ maxPoints: z.number().int().min(10).max(100_000).optional() }).optional(),
  ]),
  'runs:resources': z.tuple([runId]),
  'runs:samples': z.tuple([runId, SampleQuerySchema.optional()]),
  'runs:compare': z.tuple([CompareQuerySchema]),
  'runs:delete': z.tuple([runId]),
  'runs:tag': z.tuple([runId, z.array(z.string().min(1).max(64)).max(50)]),
  'runs:note': z.tuple([runId, z.string().max(10_000)]),
  'runs:ledger': z.tuple([runId]),
  'runs:prune': z.tuple([runId]),
  'studies:list': z.tuple([]),
  'studies:get': z.tuple([z.number().int().positive()]),
  'studies:templates': z.tuple([]),
  'targets:probe': z.tuple([
    z.string().min(1).max(2000),
    z.object({ insecure: z.boolean().default(false) }).optional(),
  ]),
  'stacks:list': z.tuple([]),
  'stacks:up': z.tuple([z.string().min(1), z.object({ native: z.boolean().default(false) }).optional()]),
  'stacks:down': z.tuple([z.string().min(1)]),
  'stacks:status': z.tuple([]),
  'monitor:test': z.tuple([z.unknown()]),
  'exports:pg': z.tuple([runIds, z.object({ url: z.string().min(1) })]),
  'exports:pgTest': z.tuple([z.object({ url: z.string().min(1) })]),
  'exports:csv': z.tuple([runId, z.object({ kind: z.enum(['samples', 'series']).default('samples') })]),
  'exports:json': z.tuple([runIds]),
  'exports:junit': z.tuple([runId]),
  'reports:create': z.tuple([
    runIds,
    z.object({ format: z.enum(['pdf', 'html']).default('pdf') }).optional(),
  ]),
  'settings:get': z.tuple([]),
  'settings:set': z.tuple([SettingsSchema.partial()]),
} as const satisfies Record<Channel, z.ZodTuple>

export type Args<C extends Channel> = z.input<(typeof argSchemas)[C]>

export interface ValidationResult {
  ok: boolean
  issues: { field: string; message: string }[]
  config: RunConfig | null
}

export interface PreviewResult {
  plan: Plan
  points: PreviewPoint[]
}

export interface CompareMetric {
  metric: 'throughput' | 'mean' | 'p50' | 'p95' | 'p99' | 'p999' | 'errorRate'
  baseline: number
  other: number
  /** (other - baseline) / baseline in %, null when the baseline is 0. */
  diffPercent: number | null
  ci95: [number, number] | null
  significant: boolean | null
  /** Plain words, e.g. "node-http served 23 % more requests/s than java-jetty (95 % CI 18-28 %)". */
  sentence: string
}

export interface CompareEntry {
  runId: number
  target: string
  label: string
  rounds: number
}

export interface CompareResult {
  baseline: CompareEntry
  others: { entry: CompareEntry; metrics: CompareMetric[] }[]
}

export interface StackInfo {
  name: string
  description: string
  url: string
  runtime: string
  limits: { cpus: number | null; memory: string | null }
}

export interface StackStatus extends StackInfo {
  state: 'down' | 'starting' | 'healthy' | 'unhealthy' | 'native'
  containers: { name: string; state: string; health: string | null }[]
}

export interface StackLogEvent {
  type: 'stack-log'
  stack: string
  line: string
}

export interface ExportResult {
  runIds: number[]
  rows: number
  path: string | null
}

export type Settings = z.output<typeof SettingsSchema>

export interface StudyListItem {
  studyId: number
  name: string
  path: string
  values: number[]
  runIds: number[]
  createdAt: string
}

export interface SweepPoint {
  value: number
  runId: number
  throughput: number
  p50: number
  p95: number
  p99: number
  errorRate: number
}

export interface StudyResults {
  studyId: number
  name: string
  path: string
  values: number[]
  /** Per target: the figures against the swept value and the knee, in words too. */
  targets: { target: string; points: SweepPoint[]; knee: number | null; sentence: string }[]
}

export interface TemplateInfo {
  id: string
  name: string
  description: string
  config: RunConfig
}

export interface ProbeResult {
  ok: boolean
  status: number | null
  latencyMs: number | null
  /** Why it did not answer, in words (refused, DNS, TLS, time-out). */
  error: string | null
}

export interface ExportProgressEvent {
  type: 'export-progress'
  runId: number
  runsDone: number
  runsTotal: number
  rowsDone: number
  rowsTotal: number
}

export type Unsubscribe = () => void

export interface Api {
  runs: {
    validate(config: unknown): Promise<ValidationResult>
    preview(load: unknown): Promise<PreviewResult>
    /** A config with `sweep` starts a study: one run per value, the first one's id returned. */
    start(config: unknown): Promise<{ runId: number; studyId?: number }>
    stop(runId: number): Promise<void>
    active(): Promise<number[]>
    list(query?: Args<'runs:list'>[0]): Promise<{ items: RunListItem[]; total: number }>
    get(runId: number): Promise<RunSummary & { config: RunConfig }>
    series(runId: number, opts?: { maxPoints?: number }): Promise<SeriesPoint[]>
    resources(runId: number): Promise<ResourcePoint[]>
    samples(runId: number, query?: Args<'runs:samples'>[1]): Promise<{ rows: SampleRow[]; total: number }>
    compare(query: Args<'runs:compare'>[0]): Promise<CompareResult>
    delete(runId: number): Promise<void>
    tag(runId: number, tags: string[]): Promise<void>
    note(runId: number, note: string): Promise<void>
    /** The raw ledger's size (requests, ≈ bytes) and whether it was pruned. */
    ledger(runId: number): Promise<{ rows: number; bytes: number; prunedAt: string | null }>
    /** Drop a run's raw samples, keeping its summaries, series and histograms. */
    prune(runId: number): Promise<{ rows: number; bytes: number; prunedAt: string | null }>
    onProgress(cb: (event: ProgressEvent) => void): Unsubscribe
    onEnded(cb: (event: RunEndedEvent) => void): Unsubscribe
  }
  studies: {
    list(): Promise<StudyListItem[]>
    get(studyId: number): Promise<StudyResults>
    /** Ready-made studies reproducing the seed experiments (resources/templates). */
    templates(): Promise<TemplateInfo[]>
  }
  targets: {
    /** Does this URL answer? One GET, with its status and time (the wizard's check). */
    probe(url: string, opts?: { insecure?: boolean }): Promise<ProbeResult>
  }
  stacks: {
    list(): Promise<StackInfo[]>
    up(name: string, opts?: { native?: boolean }): Promise<StackStatus>
    down(name: string): Promise<void>
    status(): Promise<StackStatus[]>
    onLog(cb: (event: StackLogEvent) => void): Unsubscribe
  }
  monitor: {
    test(spec: unknown): Promise<{ ok: boolean; message: string; instances: number }>
  }
  exports: {
    pg(runIds: number[], opts: { url: string }): Promise<ExportResult>
    /** Connect and check permissions without writing: the settings' test button. */
    pgTest(opts: { url: string }): Promise<{ ok: boolean; message: string }>
    csv(runId: number, opts: { kind?: 'samples' | 'series' }): Promise<ExportResult>
    json(runIds: number[]): Promise<ExportResult>
    junit(runId: number): Promise<ExportResult>
    onProgress(cb: (event: ExportProgressEvent) => void): Unsubscribe
  }
  reports: {
    create(runIds: number[], opts?: { format?: 'pdf' | 'html' }): Promise<ExportResult>
  }
  settings: {
    get(): Promise<Settings>
    set(patch: Partial<Settings>): Promise<Settings>
  }
}

/** Parse a channel's arguments; throws ApiError('bad-input') naming the argument. */
export function parseArgs<C extends Channel>(channel: C, args: unknown): z.output<(typeof argSchemas)[C]> {
  const schema = argSchemas[channel] as z.ZodTuple
  const result = schema.safeParse(args)
  if (!result.success) {
    const issue = result.error.issues[0]
    const where = issue ? issue.path.map(String).join('.') : ''
    throw new ApiError(
      'bad-input',
      `${channel}: argument ${where || '(all)'} ${issue?.message ?? 'is invalid'}`,
    )
  }
  return result.data as z.output<(typeof argSchemas)[C]>
}

export type ApiErrorCode = 'bad-input' | 'not-found' | 'conflict' | 'unavailable' | 'internal'

/** Errors that cross a transport keep their code, so the UI can say what went wrong. */
export class ApiError extends Error {
  readonly code: ApiErrorCode
  readonly field: string | undefined
  constructor(code: ApiErrorCode, message: string, field?: string) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    this.field = field
  }
}
