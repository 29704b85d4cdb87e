// Messages between the Electron main process and the engine's utility process:
// discriminated unions, calls paired with their replies by sequence number. Also the names of the
// desktop-only IPC channels (secrets, files, menu); their argument schemas are in
// ./desktop-args.ts, so the preload bundle does not carry zod.
import type { Channel, EventName } from '../engine/api/channels.ts'
import type { Envelope } from '../engine/api/transport/client.ts'

export type ToEngine =
  | { type: 'call'; seq: number; channel: Channel; args: unknown[] }
  /** Secret values by variable name, replacing what the engine had; null removes one. */
  | { type: 'secrets'; values: Record<string, string | null> }
  | { type: 'shutdown' }

export type FromEngine =
  | { type: 'ready' }
  | { type: 'result'; seq: number; envelope: Envelope<unknown> }
  | { type: 'event'; event: EventName; payload: unknown }
  | { type: 'fatal'; message: string }

export const desktopChannels = {
  secretsAvailable: 'desktop:secrets-available',
  secretsList: 'desktop:secrets-list',
  secretsSet: 'desktop:secrets-set',
  secretsDelete: 'desktop:secrets-delete',
  /** Open an exported file or report with the system's application / show it in its folder. */
  filesOpen: 'desktop:files-open',
  filesReveal: 'desktop:files-reveal',
  /** Save a copy of an exported file or report where the user picks (a save dialog). */
  filesSaveAs: 'desktop:files-save-as',
  /** main → page: a menu item asks for a route ("/new"). */
  navigate: 'desktop:navigate',
} as const

// Every message type, keyed by the unions above: a new message type is a compile error here until
// the receiving side accepts it.
const FROM_ENGINE: Record<FromEngine['type'], true> = { ready: true, result: true, event: true, fatal: true }
const TO_ENGINE: Record<ToEngine['type'], true> = { call: true, secrets: true, shutdown: true }

function hasType(value: unknown, types: Record<string, true>): boolean {
  if (typeof value !== 'object' || value === null || !('type' in value)) return false
  return typeof value.type === 'string' && Object.hasOwn(types, value.type)
}

export function isFromEngine(value: unknown): value is FromEngine {
  return hasType(value, FROM_ENGINE)
}

export function isToEngine(value: unknown): value is ToEngine {
  return hasType(value, TO_ENGINE)
}
