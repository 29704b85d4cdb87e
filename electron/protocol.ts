// Messages between the Electron main process and the engine's utility process: discriminated
// unions, calls paired with their replies by sequence number. Also the desktop-only
// IPC channels (secrets, menu), typed and parsed like the Api's.
import { z } from 'zod'
import { SECRET_NAMES } from '../engine/api/bridge.ts'
import type { Channel, EventName } from '../engine/api/channels.ts'
import type { Envelope } from '../engine/api/client.ts'

export type ToEngine =
  | { type: 'call'; seq: number; channel: Channel; args: unknown[] }
  /** Secret values by environment variable name; null removes one. */
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
  /** main → page: a menu item asks for a route ("/new"). */
  navigate: 'desktop:navigate',
} as const

const secretName = z.enum(SECRET_NAMES)

export const desktopArgSchemas = {
  [desktopChannels.secretsAvailable]: z.tuple([]),
  [desktopChannels.secretsList]: z.tuple([]),
  [desktopChannels.secretsSet]: z.tuple([secretName, z.string().min(1).max(16_384)]),
  [desktopChannels.secretsDelete]: z.tuple([secretName]),
  [desktopChannels.filesOpen]: z.tuple([z.string().min(1).max(4096)]),
  [desktopChannels.filesReveal]: z.tuple([z.string().min(1).max(4096)]),
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
