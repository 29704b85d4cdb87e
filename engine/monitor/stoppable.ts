// A monitor stopped while its `start` still waits (for a Prometheus, a cluster API or a database
// that answers slowly) would otherwise start its loop after the stop, and sample a run that has
// ended for ever, writing into a database that may be closed. Every monitor createMonitor makes is
// wrapped here, for all kinds at once: once `stop` has returned, nothing the monitor reports
// reaches the caller (what it reports while stopping, such as Prometheus' last seconds, does), a
// `start` that resolves later is stopped at once, and one that fails later is not reported.
import type { ErrorHandler, Monitor, SampleHandler } from './types.ts'

export function stoppable(inner: Monitor): Monitor {
  let stopping = false
  let stopped = false
  return {
    async start(onSample: SampleHandler, onError: ErrorHandler): Promise<void> {
      if (stopping) return
      try {
        await inner.start(
          (s) => {
            if (!stopped) onSample(s)
          },
          (e) => {
            if (!stopped) onError(e)
          },
        )
      } catch (error) {
        if (stopped) return
        throw error
      }
      // Stopped while starting: that stop found no loop to end; this one ends it.
      if (stopping) await inner.stop()
    },
    async stop(): Promise<void> {
      stopping = true
      try {
        await inner.stop()
      } finally {
        stopped = true
      }
    },
  }
}
