import type { ErrorHandler } from './types.ts'
import { MonitorError } from './types.ts'

export type Loop = { stop(): Promise<void> }

/**
 * Calls `tick` every `intervalMs`, on a fixed cadence (no drift from the tick's own duration),
 * never two at once: a tick slower than the interval delays the next slot instead of piling up.
 * A throwing tick is handed to `onThrow`; the loop goes on.
 */
export function startLoop(
  intervalMs: number,
  tick: () => Promise<void> | void,
  onThrow: (error: unknown) => void,
): Loop {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let inFlight: Promise<void> = Promise.resolve()
  let next = Date.now() + intervalMs

  const run = (): void => {
    if (stopped) return
    inFlight = (async () => {
      try {
        await tick()
      } catch (error) {
        onThrow(error)
      }
    })()
    void inFlight.then(schedule)
  }
  const schedule = (): void => {
    if (stopped) return
    const now = Date.now()
    // Skip slots we missed rather than firing a burst to catch up.
    while (next <= now) next += intervalMs
    timer = setTimeout(run, next - now)
    timer.unref()
  }

  schedule()
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await inFlight
    },
  }
}

/**
 * Reports an error only when it differs from the previous one, so a target that stays down for a
 * minute yields one message, not sixty; `ok()` re-arms it after a success.
 */
export function errorReporter(onError: ErrorHandler): {
  report(error: MonitorError): void
  ok(): void
} {
  let last: string | undefined
  return {
    report(error) {
      const key = `${error.code}:${error.message}`
      if (key === last) return
      last = key
      onError(error)
    },
    ok() {
      last = undefined
    },
  }
}

export function assertInterval(intervalMs: number): number {
  if (!Number.isFinite(intervalMs) || intervalMs < 10) {
    throw new MonitorError('config', `intervalMs must be a number >= 10, got ${intervalMs}`)
  }
  return intervalMs
}
