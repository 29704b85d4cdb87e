// Channel → Api method, for every transport that receives calls by name (HTTP routes here, the
// Electron utility process). Arguments are parsed with `argSchemas` before the method sees them
// (EXAMPLES.md 2), and errors leave as a plain {code, message, field} body that keeps its code.
// Pure module: no Node imports, so the Electron main process can use it too.
import type { z } from 'zod'
import { ApiError, parseArgs, type Api, type ApiErrorCode, type argSchemas, type Channel } from '../api.ts'
import { ConfigError } from '../config/errors.ts'

type Parsed<C extends Channel> = z.output<(typeof argSchemas)[C]>

/** One entry per channel; the compiler checks the table is complete and each call matches Api. */
const handlers: { [C in Channel]: (api: Api, args: Parsed<C>) => Promise<unknown> } = {
  'runs:validate': (api, [config]) => api.runs.validate(config),
  'runs:preview': (api, [load]) => api.runs.preview(load),
  'runs:start': (api, [config]) => api.runs.start(config),
  'runs:stop': (api, [runId]) => api.runs.stop(runId),
  'runs:active': (api) => api.runs.active(),
  'runs:list': (api, [query]) => api.runs.list(query),
  'runs:get': (api, [runId]) => api.runs.get(runId),
  'runs:series': (api, [runId, opts]) => api.runs.series(runId, opts),
  'runs:resources': (api, [runId]) => api.runs.resources(runId),
  'runs:samples': (api, [runId, query]) => api.runs.samples(runId, query),
  'runs:compare': (api, [query]) => api.runs.compare(query),
  'runs:delete': (api, [runId]) => api.runs.delete(runId),
  'runs:tag': (api, [runId, tags]) => api.runs.tag(runId, tags),
  'runs:note': (api, [runId, note]) => api.runs.note(runId, note),
  'runs:ledger': (api, [runId]) => api.runs.ledger(runId),
  'runs:prune': (api, [runId]) => api.runs.prune(runId),
  'studies:list': (api) => api.studies.list(),
  'studies:get': (api, [studyId]) => api.studies.get(studyId),
  'studies:templates': (api) => api.studies.templates(),
  'targets:probe': (api, [url, opts]) => api.targets.probe(url, opts),
  'stacks:list': (api) => api.stacks.list(),
  'stacks:up': (api, [name, opts]) => api.stacks.up(name, opts),
  'stacks:down': (api, [name]) => api.stacks.down(name),
  'stacks:status': (api) => api.stacks.status(),
  'monitor:test': (api, [spec]) => api.monitor.test(spec),
  'exports:pg': (api, [runIds, opts]) => api.exports.pg(runIds, opts),
  'exports:pgTest': (api, [opts]) => api.exports.pgTest(opts),
  'exports:csv': (api, [runId, opts]) => api.exports.csv(runId, opts),
  'exports:json': (api, [runIds]) => api.exports.json(runIds),
  'exports:junit': (api, [runId]) => api.exports.junit(runId),
  'reports:create': (api, [runIds, opts]) => api.reports.create(runIds, opts),
  'settings:get': (api) => api.settings.get(),
  'settings:set': (api, [patch]) => api.settings.set(patch),
}

export function isChannel(name: string): name is Channel {
  return Object.hasOwn(handlers, name)
}

/** Parse `rawArgs` for `channel` and call the matching Api method. Throws ApiError on bad input. */
export async function dispatch<C extends Channel>(api: Api, channel: C, rawArgs: unknown): Promise<unknown> {
  const args = parseArgs(channel, rawArgs)
  const handler: (api: Api, args: Parsed<C>) => Promise<unknown> = handlers[channel]
  return handler(api, args)
}

export interface ErrorBody {
  code: ApiErrorCode
  message: string
  field?: string
}

/** What any thrown value looks like on the wire. Unknown errors become `internal`, message kept. */
export function toErrorBody(err: unknown): ErrorBody {
  if (err instanceof ApiError) {
    return err.field === undefined
      ? { code: err.code, message: err.message }
      : { code: err.code, message: err.message, field: err.field }
  }
  if (err instanceof ConfigError) return { code: 'bad-input', message: err.message, field: err.field }
  if (err instanceof Error) {
    // An ApiError rebuilt in another realm (worker, utility process) keeps its shape, not its class.
    const code = (err as Error & { code?: unknown }).code
    if (typeof code === 'string' && isApiErrorCode(code)) {
      const field = (err as Error & { field?: unknown }).field
      return typeof field === 'string'
        ? { code, message: err.message, field }
        : { code, message: err.message }
    }
    return { code: 'internal', message: err.message }
  }
  return { code: 'internal', message: String(err) }
}

const CODES: readonly ApiErrorCode[] = ['bad-input', 'not-found', 'conflict', 'unavailable', 'internal']

export function isApiErrorCode(code: string): code is ApiErrorCode {
  return (CODES as readonly string[]).includes(code)
}

export function fromErrorBody(body: ErrorBody): ApiError {
  return new ApiError(body.code, body.message, body.field)
}

/** HTTP status for an error code. */
export function statusOf(code: ApiErrorCode): number {
  switch (code) {
    case 'bad-input':
      return 400
    case 'not-found':
      return 404
    case 'conflict':
      return 409
    case 'unavailable':
      return 503
    case 'internal':
      return 500
  }
}
