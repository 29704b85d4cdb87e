// Both ends of a transport, typed from the one contract (./channels.ts): `createApiClient` turns
// a channel-level transport (HTTP + WebSocket, the Electron preload bridge) into an `Api`, and
// `subscribeAll` forwards an `Api`'s events by name. Both are built from ./channels.ts, so a new
// operation needs no edit here. Pure module: the renderer imports it.
import type { Api } from '../api.ts'
import {
  EVENT_NAMES,
  mapContract,
  subscribeMethod,
  type Channel,
  type EventName,
  type EventPayloads,
  type ParamsOf,
  type ResultOf,
} from '../channels.ts'
import type { ErrorBody } from '../errors.ts'
import type { Unsubscribe } from '../types.ts'

/** A call's outcome as it crosses a boundary that cannot carry error classes (IPC, contextBridge). */
export type Envelope<T> = { ok: true; result: T } | { ok: false; error: ErrorBody }

export interface Transport {
  call<C extends Channel>(channel: C, args: ParamsOf<C>): Promise<ResultOf<C>>
  subscribe<E extends EventName>(event: E, cb: (payload: EventPayloads[E]) => void): Unsubscribe
}

/** The Api over a transport: one function per operation, each named by its `channels` constant. */
export function createApiClient(t: Transport): Api {
  const shape = mapContract(
    (channel) =>
      (...args: unknown[]) =>
        t.call(channel, args as ParamsOf<typeof channel>),
    (event) => (cb: (payload: EventPayloads[typeof event]) => void) => t.subscribe(event, cb),
  )
  // mapContract made one function per entry of `channels` and `events`, which the compiler holds
  // equal to the Api's methods (channels.ts, ContractChecks).
  return shape as unknown as Api
}

/** Forward every Api event by name (server → WebSocket, utility process → main). */
export function subscribeAll(
  api: Api,
  emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => void,
): Unsubscribe {
  const offs = EVENT_NAMES.map((event) => subscribeMethod(api, event, (payload) => emit(event, payload)))
  return () => {
    for (const off of offs) off()
  }
}
