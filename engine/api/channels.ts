// The Api's operations and events by name (names.ts), typed from the Api interface: the method a
// channel names, what an event carries, and the helpers every transport end is built with. The
// checks at the bottom make the compiler refuse a map that disagrees with the interface: a missing
// or extra operation, or a name that is not `domain:action`.
import type { Api } from './api.ts'
import { channels, events, type Channel, type Domain, type EventName } from './names.ts'

export * from './names.ts'

type Channels = typeof channels
type Events = typeof events

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
  Assert<Equal<keyof Channels, keyof Api>>,
  Assert<ChannelNamesOk>,
  Assert<EventsAreSubscriptions>,
]
