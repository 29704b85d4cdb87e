// Web mode transport: POST /api/<channel> and one shared WebSocket for events, both carrying the
// per-launch token from the URL `cannonade serve` printed (kept in sessionStorage, then removed
// from the address bar so it does not end up in screenshots or history).
import {
  isEventName,
  type Channel,
  type EventName,
  type EventPayloads,
  type ParamsOf,
  type ResultOf,
} from '#engine/api/channels.ts'
import type { Transport } from '#engine/api/transport/client.ts'
import { ApiError, fromErrorBody, isApiErrorCode, type ErrorBody } from '#engine/api/errors.ts'
import type { Unsubscribe } from '#engine/api/types.ts'

const TOKEN_KEY = 'cannonade.token'

/** `unauthorized`: the page has no token (opened without the printed URL), so events cannot flow. */
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'unauthorized'

export function takeToken(): string | null {
  const url = new URL(window.location.href)
  const fromUrl = url.searchParams.get('token')
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl)
    url.searchParams.delete('token')
    window.history.replaceState(null, '', url.pathname + url.search + url.hash)
    return fromUrl
  }
  return sessionStorage.getItem(TOKEN_KEY)
}

function isErrorBody(value: unknown): value is { error: ErrorBody } {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false
  const error = value.error
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    isApiErrorCode(error.code)
  )
}

export interface WebTransport extends Transport {
  readonly token: string | null
  connection(): ConnectionState
  onConnection(cb: (state: ConnectionState) => void): Unsubscribe
  close(): void
}

/** One Api call: POST /api/<channel> with the token; an error answer becomes its ApiError. */
async function postCall<C extends Channel>(
  token: string | null,
  channel: C,
  args: ParamsOf<C>,
): Promise<ResultOf<C>> {
  // JSON turns a trailing undefined into null, which an optional tuple element refuses.
  const list: unknown[] = [...(args as unknown[])]
  while (list.length > 0 && list[list.length - 1] === undefined) list.pop()
  let res: Response
  try {
    res = await fetch(`/api/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-cannonade-token': token ?? '' },
      body: JSON.stringify(list),
    })
  } catch (err) {
    throw new ApiError(
      'unavailable',
      `cannot reach the Cannonade server (${err instanceof Error ? err.message : String(err)})`,
    )
  }
  const body: unknown = await res.json().catch(() => null)
  if (res.status === 401)
    throw new ApiError('bad-input', 'This page has no valid token: open the URL `cannonade serve` printed.')
  if (!res.ok) {
    if (isErrorBody(body)) throw fromErrorBody(body.error)
    throw new ApiError('internal', `${channel}: HTTP ${res.status}`)
  }
  // The transport boundary: the engine produced this value for this channel.
  return body as ResultOf<C>
}

/** An `{event, payload}` message of the event socket, or null for anything else. */
function eventOf(data: string): { event: EventName; payload: unknown } | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(data)
  } catch {
    return null
  }
  if (typeof parsed !== 'object' || parsed === null) return null
  const { event, payload } = parsed as { event?: unknown; payload?: unknown }
  if (typeof event !== 'string' || !isEventName(event)) return null
  return { event, payload }
}

type Listener = (payload: unknown) => void

/**
 * The one shared event socket (/api/events), opened by the first subscription and reopened with
 * backoff when it closes; its state for the connection badge.
 */
function eventSocket(token: string | null) {
  const listeners = new Map<EventName, Set<Listener>>()
  const stateListeners = new Set<(state: ConnectionState) => void>()
  let socket: WebSocket | null = null
  let state: ConnectionState = token ? 'closed' : 'unauthorized'
  let retry = 0
  let retryTimer: ReturnType<typeof setTimeout> | null = null
  let closed = false

  const setState = (next: ConnectionState) => {
    if (state === next) return
    state = next
    for (const cb of stateListeners) cb(next)
  }

  const connect = () => {
    if (closed || socket || !token) return
    const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:'
    const ws = new WebSocket(
      `${proto}//${window.location.host}/api/events?token=${encodeURIComponent(token)}`,
    )
    socket = ws
    setState('connecting')
    ws.onopen = () => {
      retry = 0
      setState('open')
    }
    ws.onmessage = (msg: MessageEvent<string>) => {
      const m = eventOf(msg.data)
      if (m) for (const cb of listeners.get(m.event) ?? []) cb(m.payload)
    }
    ws.onclose = () => {
      socket = null
      setState('closed')
      if (closed) return
      // Reconnect with backoff: the engine may restart, the laptop may sleep.
      const delay = Math.min(10_000, 500 * 2 ** retry++)
      retryTimer = setTimeout(connect, delay)
    }
  }

  return {
    listen(event: EventName, listener: Listener): Unsubscribe {
      const set = listeners.get(event) ?? new Set<Listener>()
      listeners.set(event, set)
      set.add(listener)
      connect()
      return () => {
        set.delete(listener)
      }
    },
    state: () => state,
    onState: (cb: (state: ConnectionState) => void): Unsubscribe => {
      stateListeners.add(cb)
      return () => {
        stateListeners.delete(cb)
      }
    },
    close: () => {
      closed = true
      if (retryTimer) clearTimeout(retryTimer)
      socket?.close()
    },
  }
}

export function webTransport(token: string | null): WebTransport {
  const events = eventSocket(token)
  return {
    token,
    call: (channel, args) => postCall(token, channel, args),
    subscribe<E extends EventName>(event: E, cb: (payload: EventPayloads[E]) => void): Unsubscribe {
      return events.listen(event, (payload) => cb(payload as EventPayloads[E]))
    },
    connection: events.state,
    onConnection: events.onState,
    close: events.close,
  }
}
