// Both ends of a transport, typed from the one contract (EXAMPLES.md 1-3): `createApiClient` turns
// a channel-level transport (HTTP + WebSocket, the Electron preload bridge) into an `Api`, and
// `subscribeAll` forwards an `Api`'s events by name. Pure module: the renderer imports it.
import { channels, events, type Api, type Channel, type Unsubscribe } from '../api.ts'
import type { ProgressEvent, RunEndedEvent } from '../types.ts'
import type { ExportProgressEvent, StackLogEvent } from '../api.ts'
import type { ErrorBody } from './dispatch.ts'

type DomainOf<C extends string> = C extends `${infer D}:${string}` ? D : never
type ActionOf<C extends string> = C extends `${string}:${infer A}` ? A : never

/** The Api method a channel names, e.g. Method<'runs:get'> = Api['runs']['get']. */
export type Method<C extends Channel> =
  DomainOf<C> extends infer D extends keyof Api
    ? ActionOf<C> extends infer A extends keyof Api[D]
      ? Api[D][A]
      : never
    : never

type Fn = (...args: never[]) => unknown
export type ParamsOf<C extends Channel> = Method<C> extends Fn ? Parameters<Method<C>> : never
export type ResultOf<C extends Channel> = Method<C> extends Fn ? Awaited<ReturnType<Method<C>>> : never

/** Events the Api exposes as `onX` subscriptions. */
export interface EventPayloads {
  [events.runProgress]: ProgressEvent
  [events.runEnded]: RunEndedEvent
  [events.stackLog]: StackLogEvent
  [events.exportProgress]: ExportProgressEvent
}
export type EventName = keyof EventPayloads
export const EVENT_NAMES: readonly EventName[] = [
  events.runProgress,
  events.runEnded,
  events.stackLog,
  events.exportProgress,
]

export function isEventName(name: string): name is EventName {
  return (EVENT_NAMES as readonly string[]).includes(name)
}

/** A call's outcome as it crosses a boundary that cannot carry error classes (IPC, contextBridge). */
export type Envelope<T> = { ok: true; result: T } | { ok: false; error: ErrorBody }

export interface Transport {
  call<C extends Channel>(channel: C, args: ParamsOf<C>): Promise<ResultOf<C>>
  subscribe<E extends EventName>(event: E, cb: (payload: EventPayloads[E]) => void): Unsubscribe
}

/** The Api over a transport: one function per operation, each named by its `channels` constant. */
export function createApiClient(t: Transport): Api {
  const c = channels
  return {
    runs: {
      validate: (...a) => t.call(c.runs.validate, a),
      preview: (...a) => t.call(c.runs.preview, a),
      start: (...a) => t.call(c.runs.start, a),
      stop: (...a) => t.call(c.runs.stop, a),
      active: (...a) => t.call(c.runs.active, a),
      list: (...a) => t.call(c.runs.list, a),
      get: (...a) => t.call(c.runs.get, a),
      series: (...a) => t.call(c.runs.series, a),
      resources: (...a) => t.call(c.runs.resources, a),
      samples: (...a) => t.call(c.runs.samples, a),
      compare: (...a) => t.call(c.runs.compare, a),
      delete: (...a) => t.call(c.runs.delete, a),
      tag: (...a) => t.call(c.runs.tag, a),
      note: (...a) => t.call(c.runs.note, a),
      ledger: (...a) => t.call(c.runs.ledger, a),
      prune: (...a) => t.call(c.runs.prune, a),
      onProgress: (cb) => t.subscribe(events.runProgress, cb),
      onEnded: (cb) => t.subscribe(events.runEnded, cb),
    },
    studies: {
      list: (...a) => t.call(c.studies.list, a),
      get: (...a) => t.call(c.studies.get, a),
      templates: (...a) => t.call(c.studies.templates, a),
    },
    targets: { probe: (...a) => t.call(c.targets.probe, a) },
    stacks: {
      list: (...a) => t.call(c.stacks.list, a),
      up: (...a) => t.call(c.stacks.up, a),
      down: (...a) => t.call(c.stacks.down, a),
      status: (...a) => t.call(c.stacks.status, a),
      onLog: (cb) => t.subscribe(events.stackLog, cb),
    },
    monitor: { test: (...a) => t.call(c.monitor.test, a) },
    exports: {
      pg: (...a) => t.call(c.exports.pg, a),
      pgTest: (...a) => t.call(c.exports.pgTest, a),
      csv: (...a) => t.call(c.exports.csv, a),
      json: (...a) => t.call(c.exports.json, a),
      junit: (...a) => t.call(c.exports.junit, a),
      onProgress: (cb) => t.subscribe(events.exportProgress, cb),
    },
    reports: { create: (...a) => t.call(c.reports.create, a) },
    settings: {
      get: (...a) => t.call(c.settings.get, a),
      set: (...a) => t.call(c.settings.set, a),
    },
  }
}

/** Forward every Api event by name (server → WebSocket, utility process → main). */
export function subscribeAll(
  api: Api,
  emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => void,
): Unsubscribe {
  const offs = [
    api.runs.onProgress((p) => emit(events.runProgress, p)),
    api.runs.onEnded((p) => emit(events.runEnded, p)),
    api.stacks.onLog((p) => emit(events.stackLog, p)),
    api.exports.onProgress((p) => emit(events.exportProgress, p)),
  ]
  return () => {
    for (const off of offs) off()
  }
}
