// Reading a JSON export (json.ts) as a stream of records: line by line in the layout json.ts
// writes, or, for a file someone reformatted, by parsing the whole document. Every record is
// checked with zod; a bad one names the file and line.
import { closeSync, readSync, statSync } from 'node:fs'
import { openRegularFile } from '../config/files.ts'
import { StringDecoder } from 'node:string_decoder'
import { z } from 'zod'
import { ApiError } from '../api/errors.ts'
import { issueMessage } from '../config/issue-words.ts'
import { RUN_ENDS } from '../api/types.ts'
import { JSON_FORMAT, JSON_VERSION } from './json.ts'
import { FIRST_SAMPLE_COLUMNS, TABLES } from '../store/export-read.ts'
import { MAX_WARNINGS } from '../store/warnings.ts'
import { LIMITS } from '../config/limits.ts'
import { withLegacyRule } from '../config/status-rule.ts'
import {
  DistributionSchema,
  GeneratorHealthSchema,
  TargetSummarySchema,
  ThresholdResultsSchema,
} from '../store/schemas.ts'
import { RoundNoiseSchema, StoredStopSchema } from '../store/rounds-schemas.ts'

/** An instant as the engine writes it: ISO 8601 in UTC (new Date().toISOString()). */
const isoDate = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/,
    'must be an ISO 8601 UTC time such as 2025-01-01T12:00:00.000Z',
  )
  .refine((s) => !Number.isNaN(Date.parse(s)), 'must be a real date')

const Cell = z.union([z.number(), z.string(), z.null()])
/** A table of `columns`; with `optionalLast`, files written before its last column existed pass too. */
/** `optionalTail`: how many of the last columns a file from an older version may lack. */
const Table = (columns: readonly string[], optionalTail = 0) =>
  z
    .object({
      columns: z
        .array(z.string())
        .refine(
          (c) => c.length >= columns.length - optionalTail && c.join() === columns.slice(0, c.length).join(),
          `columns must be ${columns.join(', ')}`,
        ),
      rows: z.array(z.array(Cell)),
    })
    .refine((t) => t.rows.every((r) => r.length === t.columns.length), 'every row needs one cell per column')

const HeaderSchema = z.object({ format: z.literal(JSON_FORMAT), version: z.number().int() })

const RunSchema = z.object({
  origin: z.string().min(1),
  sourceRunId: z.number().int(),
  run: z.object({
    // Bounded as a config and the Api bound them (issue 20, item 7).
    name: z.string().min(1).max(LIMITS.nameLength),
    status: z.enum(RUN_ENDS),
    config: z.record(z.string(), z.unknown()),
    correlationPrefix: z.string().min(1).max(64),
    startedAt: isoDate,
    endedAt: isoDate.nullable(),
    error: z.string().max(100_000).nullable(),
    tags: z.array(z.string().min(1).max(LIMITS.tagLength)).max(LIMITS.tags),
    note: z.string().max(LIMITS.noteLength),
    // The columns the engine reads back, parsed with the schemas it reads them with (issue 20,
    // item 4): a file that passes here is a run `runs show`, compare, JUnit and the report read.
    generator: GeneratorHealthSchema.nullable(),
    thresholds: ThresholdResultsSchema.nullable(),
    /** A run of load agents (files from before them have none). */
    distribution: DistributionSchema.nullable().optional(),
    // Files from before run warnings have none.
    warnings: z
      .array(
        z.object({
          kind: z.enum(['monitor', 'connections']),
          field: z.string(),
          target: z.string(),
          source: z.string(),
          message: z.string(),
          stopped: z.boolean(),
          at: isoDate,
          t: z.number().nullable(),
          count: z.number().int().min(1),
        }),
      )
      .max(MAX_WARNINGS)
      .default([]),
    // Files from before rounds until precise have none.
    rounds: StoredStopSchema.nullable().default(null),
  }),
  runTargets: z.array(
    z.object({
      targetIndex: z.number().int(),
      round: z.number().int(),
      target: z.string(),
      url: z.string(),
      summary: TargetSummarySchema.nullable(),
      histogram: z.string().nullable(),
      correctedHistogram: z.string().nullable(),
      // Files from before the noise was measured have neither.
      segment: z.number().int().nullable().default(null),
      noise: RoundNoiseSchema.nullable().default(null),
    }),
  ),
  series: Table(TABLES.series.columns),
  // Older files lack connections (before the postgres monitor), metric and value (before prometheus).
  resources: Table(TABLES.resource_samples.columns, 3),
  environment: z
    .object({
      host: z.string(),
      cpu: z.string(),
      cores: z.number().int(),
      os: z.string(),
      node: z.string(),
      app: z.string(),
      details: z.unknown(),
    })
    .nullable(),
  sampleColumns: z.array(z.string()).refine(
    (c) =>
      // The record's columns, or the first of them (a file from before a column was added).
      c.length >= FIRST_SAMPLE_COLUMNS && c.join() === TABLES.samples.columns.slice(0, c.length).join(),
    'unexpected sample columns',
  ),
})
export type RunRecord = z.output<typeof RunSchema>

interface RawRun {
  run: { generator?: unknown; thresholds?: unknown; distribution?: unknown }
  runTargets: { summary?: unknown }[]
}

/**
 * A run record checked with RunSchema, its JSON columns kept as the file has them (the schemas
 * check them; what is stored is what was exported, every field of it).
 */
/**
 * The config a run of a file in `version` ran with: before version 2 (issue 28) only 2xx was a
 * success, and a target that named no rule had that one.
 */
function ranWith(config: Record<string, unknown>, version: number): Record<string, unknown> {
  if (version >= 2 || !Array.isArray(config.targets)) return config
  const targets = (config.targets as unknown[]).filter(
    (t): t is Record<string, unknown> => typeof t === 'object' && t !== null,
  )
  return targets.length === config.targets.length ? withLegacyRule({ ...config, targets }) : config
}

function parseRun(value: unknown, file: string, where: string, version: number): RunRecord {
  const parsed = parseRecord(RunSchema, value, file, where)
  const raw = value as RawRun
  return {
    ...parsed,
    run: {
      ...parsed.run,
      config: ranWith(parsed.run.config, version),
      generator: raw.run.generator as RunRecord['run']['generator'],
      thresholds: raw.run.thresholds as RunRecord['run']['thresholds'],
      distribution: raw.run.distribution as RunRecord['run']['distribution'],
    },
    runTargets: parsed.runTargets.map((t, i) => ({
      ...t,
      summary: raw.runTargets[i]?.summary as RunRecord['runTargets'][number]['summary'],
    })),
  }
}
export type SampleCells = (number | null)[]

export type ImportEvent = { kind: 'run'; run: RunRecord } | { kind: 'sample'; row: SampleCells }

export function bad(file: string, where: string, message: string): ApiError {
  return new ApiError('bad-input', `${file}: ${where}: ${message}`, 'file')
}

function parseRecord<S extends z.ZodType>(
  schema: S,
  value: unknown,
  file: string,
  where: string,
): z.output<S> {
  const r = schema.safeParse(value)
  if (r.success) return r.data
  const issue = r.error.issues[0]
  throw bad(
    file,
    where,
    `${issue?.path.map(String).join('.') || 'record'} ${issue ? issueMessage(issue) : 'is invalid'}`,
  )
}

/** The longest line a JSON export holds (a run's record, with its per-second series), characters. */
const MAX_LINE_CHARS = 256 * 2 ** 20
/** The largest file `import json` reads. */
export const MAX_IMPORT_JSON_BYTES = 16 * 2 ** 30

/**
 * Only a regular file is imported, of at most MAX_IMPORT_JSON_BYTES: a FIFO would hang the import,
 * /dev/zero never end, a folder is a mistake (issue 20, item 4).
 */
export function checkImportFile(file: string): void {
  let st
  try {
    st = statSync(file)
  } catch {
    throw new ApiError('bad-input', `file not found: ${file}`, 'file')
  }
  if (!st.isFile()) {
    const what = st.isDirectory()
      ? 'a folder'
      : st.isFIFO()
        ? 'a FIFO'
        : st.isCharacterDevice()
          ? 'a device'
          : 'not a file'
    throw new ApiError('bad-input', `file: ${file} is ${what}; import json reads a regular file`, 'file')
  }
  if (st.size > MAX_IMPORT_JSON_BYTES)
    throw new ApiError(
      'bad-input',
      `file: ${file} is larger than ${MAX_IMPORT_JSON_BYTES / 2 ** 30} GiB`,
      'file',
    )
}

/**
 * The file's lines, each chunk of it scanned once: a line longer than a chunk is kept as chunks and
 * joined once when it ends (a 200 MB line was joined and split again at every 4 MB, minutes and
 * gigabytes). Opened without blocking and read only while it is a regular file (../config/files.ts).
 */
function* readLines(file: string): Generator<string> {
  let fd: number
  try {
    fd = openRegularFile(file, MAX_IMPORT_JSON_BYTES).fd
  } catch (err) {
    throw new ApiError('bad-input', `file: ${err instanceof Error ? err.message : String(err)}`, 'file')
  }
  try {
    const buf = Buffer.alloc(4 << 20)
    const decoder = new StringDecoder('utf8')
    let held: string[] = []
    let heldChars = 0
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) {
      const text = decoder.write(buf.subarray(0, n))
      let start = 0
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        held.push(text.slice(start, nl))
        yield held.length === 1 ? held[0]! : held.join('')
        held = []
        heldChars = 0
        start = nl + 1
      }
      if (start < text.length) {
        held.push(text.slice(start))
        heldChars += text.length - start
      }
      if (heldChars > MAX_LINE_CHARS)
        throw bad(
          file,
          'document',
          `a line longer than ${MAX_LINE_CHARS / 2 ** 20} MiB characters: not a Cannonade export`,
        )
    }
    const rest = held.join('') + decoder.end()
    if (rest !== '') yield rest
  } finally {
    closeSync(fd)
  }
}

/** The file's format version, when this Cannonade reads it. */
function checkHeader(value: unknown, file: string): number {
  const header = parseRecord(HeaderSchema, value, file, 'header')
  if (header.version > JSON_VERSION) {
    throw bad(
      file,
      'header',
      `format version ${header.version} is newer than this Cannonade reads (${JSON_VERSION}); update Cannonade`,
    )
  }
  return header.version
}

/** Records of a file in json.ts's line layout, or of any JSON layout by parsing it whole. */
export function* records(file: string): Generator<ImportEvent> {
  const lines = readLines(file)
  const first = lines.next()
  if (
    first.done ||
    !first.value.startsWith(`{"format":"${JSON_FORMAT}"`) ||
    !first.value.endsWith('"runs":[')
  ) {
    lines.return(undefined)
    yield* wholeDocument(file)
    return
  }
  const version = checkHeader(JSON.parse(`${first.value}]}`), file)
  let line = 1
  let inSamples = false
  for (const text of lines) {
    line++
    const where = `line ${line}`
    try {
      if (inSamples && text.startsWith('[')) {
        yield {
          kind: 'sample',
          row: JSON.parse(text.endsWith(',') ? text.slice(0, -1) : text) as SampleCells,
        }
      } else if (text === ']}') {
        if (!inSamples) return
        inSamples = false
      } else if (
        !inSamples &&
        (text.startsWith('{') || text.startsWith(',{')) &&
        text.endsWith('"samples":[')
      ) {
        const value: unknown = JSON.parse(`${text.replace(/^,/, '')}]}`)
        yield { kind: 'run', run: parseRun(value, file, where, version) }
        inSamples = true
      } else if (text.trim() !== '') throw bad(file, where, 'unexpected content')
    } catch (err) {
      throw err instanceof ApiError ? err : bad(file, where, (err as Error).message)
    }
  }
  throw bad(file, `line ${line}`, 'the file ends early (truncated?)')
}

function* wholeDocument(file: string): Generator<ImportEvent> {
  if (statSync(file).size > 1 << 30)
    throw bad(file, 'document', 'not in the streaming layout and too large (> 1 GiB) to read whole')
  let doc: unknown
  try {
    doc = JSON.parse([...readLines(file)].join('\n'))
  } catch (err) {
    throw bad(file, 'document', `not valid JSON (${(err as Error).message})`)
  }
  const version = checkHeader(doc, file)
  const runs = parseRecord(
    z.object({ runs: z.array(z.record(z.string(), z.unknown())) }),
    doc,
    file,
    'document',
  ).runs
  for (const [i, raw] of runs.entries()) {
    const { samples, ...meta } = raw
    yield { kind: 'run', run: parseRun(meta, file, `runs.${i}`, version) }
    const rows = parseRecord(
      z.array(z.array(z.union([z.number(), z.null()]))),
      samples ?? [],
      file,
      `runs.${i}.samples`,
    )
    for (const row of rows) yield { kind: 'sample', row }
  }
}
