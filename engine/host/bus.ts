// The engine host's event bus: what runs, studies, stacks, exports and reports emit, and the
// subscriptions the Api's on* operations (and host/local-capabilities.ts) hand out on it.
import { EventEmitter } from 'node:events'
import type { Unsubscribe } from '../api/types.ts'
import { redactText } from '../config/redact.ts'
import type { RunLogEvent } from './local-capabilities.ts'

export interface HostBus {
  readonly bus: EventEmitter
  readonly subscribe: <T>(event: string, cb: (e: T) => void) => Unsubscribe
  /** A runner's log line, redacted: secrets never reach a subscriber. */
  readonly log: (level: RunLogEvent['level'], message: string) => void
}

export function createBus(): HostBus {
  const bus = new EventEmitter()
  bus.setMaxListeners(100)
  return {
    bus,
    subscribe: <T>(event: string, cb: (e: T) => void) => {
      bus.on(event, cb)
      return () => void bus.off(event, cb)
    },
    log: (level, message) =>
      bus.emit('run-log', { type: 'run-log', level, message: redactText(message) } satisfies RunLogEvent),
  }
}
