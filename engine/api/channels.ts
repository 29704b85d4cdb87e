// Every operation and event of the Api, listed once (CONTRIBUTING.md, IPC and API rules). Channel
// names are `domain:action`; an event is the `onX` subscription of its domain. Everything that has
// to name each operation (the client, the preload bridge, the dispatcher, event forwarding) is
// built from these two maps, and the checks at the bottom make the compiler refuse a map that
// disagrees with the Api interface: a missing or extra operation, or a name that is not
// `domain:action`.
import type { Api } from './api.ts'

export const channels = {
  runs: {
    validate: 'runs:validate',
    start: 'runs:start',
    stop: 'runs:stop',
    active: 'runs:active',
    list: 'runs:list',
    get: 'runs:get',
    series: 'runs:series',
    resources: 'runs:resources',
    distribution: 'runs:distribution',
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
    studyCsv: 'exports:studyCsv',
  },
  reports: { create: 'reports:create' },
  settings: { get: 'settings:get', set: 'settings:set' },
} as const

/** Subscriptions: `api.<domain>.<onX>(cb)` receives the events named here. */
export const events = {
  runs: {
    onProgress: 'runs:progress',
    onEnded: 'runs:ended',
    onWarning: 'runs:warning',
    onAgents: 'runs:agents',
  },
  stacks: { onLog: 'stacks:log' },
  exports: { onProgress: 'exports:progress' },
  reports: { onProgress: 'reports:progress' },
} as const

type Channels = typeof channels
type Events = typeof events
type ValueOf<T> = T[keyof T]

export type Domain = keyof Api
export type Channel = { [D in keyof Channels]: ValueOf<Channels[D]> }[keyof Channels]
export type EventName = { [D in keyof Events]: ValueOf<Events[D]> }[keyof Events]

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

/** The subscription method an event belongs to, e.g. Subscription<'runs:ended'> = Api['runs']['onEnded']. */
type Subscription<E extends EventName> = {
  [D in keyof Events]: {
    [K in keyof Events[D]]: Events[D][K] extends E ? Api[D & Domain][K & keyof Api[D & Domain]] : never
  }[keyof Events[D]]
}[keyof Events]

/** What an event carries: the argument of its subscription's callback. */
export type EventPayloads = {
  [E in EventName]: Subscription<E> extends (cb: (payload: infer P) => void) => unknown ? P : never
}

export const CHANNELS: readonly Channel[] = Object.values(channels).flatMap((ops) => Object.values(ops))
export const EVENT_NAMES: readonly EventName[] = Object.values(events).flatMap((evs) => Object.values(evs))

export function isChannel(name: string): name is Channel {
  return (CHANNELS as readonly string[]).includes(name)
}

export function isEventName(name: string): name is EventName {
  return (EVENT_NAMES as readonly string[]).includes(name)
}

/**
 * Build an object shaped like the Api from one function per operation and one per subscription:
 * the client, the preload bridge and any other transport end are this, never a hand-written list.
 */
export function mapContract<Op, Sub>(
  op: (channel: Channel) => Op,
  sub: (event: EventName) => Sub,
): Record<Domain, Record<string, Op | Sub>> {
  const out = {} as Record<Domain, Record<string, Op | Sub>>
  for (const domain of Object.keys(channels) as Domain[]) {
    const group: Record<string, Op | Sub> = {}
    for (const [action, channel] of Object.entries(channels[domain])) group[action] = op(channel)
    const evs: Record<string, EventName> = domain in events ? events[domain as keyof Events] : {}
    for (const [on, event] of Object.entries(evs)) group[on] = sub(event)
    out[domain] = group
  }
  return out
}

/** Call the Api method a channel names with already-parsed arguments. */
export function callMethod<C extends Channel>(api: Api, channel: C, args: ParamsOf<C>): Promise<ResultOf<C>> {
  const [domain, action] = channel.split(':') as [Domain, string]
  // Method<C> is the function at api[domain][action]; the checks below keep the maps in step with Api.
  const group = api[domain] as unknown as Record<string, (...a: unknown[]) => Promise<ResultOf<C>>>
  return group[action]!.apply(group, args as unknown[])
}

/** The domain and `onX` method an event is subscribed through. */
export function subscriptionOf(event: EventName): { domain: Domain; on: string } {
  for (const [domain, evs] of Object.entries(events) as [Domain, Record<string, EventName>][]) {
    for (const [on, name] of Object.entries(evs)) if (name === event) return { domain, on }
  }
  throw new Error(`no subscription for ${event}`)
}

/** Subscribe to an event through the Api's own onX method. */
export function subscribeMethod<E extends EventName>(
  api: Api,
  event: E,
  cb: (payload: EventPayloads[E]) => void,
): () => void {
  const { domain, on } = subscriptionOf(event)
  const group = api[domain] as unknown as Record<string, (cb: (p: EventPayloads[E]) => void) => () => void>
  return group[on]!.call(group, cb)
}

// ---- compile-time checks: the maps and the Api interface name the same operations ----
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
type Assert<T extends true> = T
type NamesOk = {
  [D in Domain]: Equal<
    keyof Api[D],
    | keyof (D extends keyof Channels ? Channels[D] : object)
    | keyof (D extends keyof Events ? Events[D] : object)
  >
}[Domain]
type ChannelNamesOk = {
  [D in keyof Channels]: {
    [K in keyof Channels[D]]: Equal<Channels[D][K], `${D}:${K & string}`>
  }[keyof Channels[D]]
}[keyof Channels]
type EventsAreSubscriptions = {
  [E in EventName]: Subscription<E> extends (cb: (payload: unknown) => void) => () => void ? true : false
}[EventName]
export type ContractChecks = [
  Assert<NamesOk>,
  Assert<Equal<keyof Channels, Domain>>,
  Assert<ChannelNamesOk>,
  Assert<EventsAreSubscriptions>,
]
