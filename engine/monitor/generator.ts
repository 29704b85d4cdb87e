import { errorReporter, startLoop } from './loop.ts'
import type { Loop } from './loop.ts'
import { MonitorError, toMonitorError } from './types.ts'
import type { ErrorHandler, Monitor, SampleHandler } from './types.ts'

/**
 * The load generator's own CPU and memory: create it *in* the process that generates load (the
 * runner worker), since it measures the current process (all its threads). Near 100 % means the
 * generator, not the target, may be the bottleneck, and the run's figures say little.
 */
export class GeneratorMonitor implements Monitor {
  readonly #target: string
  readonly #intervalMs: number
  #loop: Loop | undefined

  constructor(target = 'generator', intervalMs = 1000) {
    this.#target = target
    this.#intervalMs = intervalMs
  }

  async start(onSample: SampleHandler, onError: ErrorHandler): Promise<void> {
    if (this.#loop) throw new MonitorError('config', 'generator monitor already started')
    const errors = errorReporter(onError)
    let last = { cpu: process.cpuUsage(), at: performance.now() }
    this.#loop = startLoop(
      this.#intervalMs,
      () => {
        const now = { cpu: process.cpuUsage(), at: performance.now() }
        const usedUs = now.cpu.user - last.cpu.user + (now.cpu.system - last.cpu.system)
        const elapsedUs = (now.at - last.at) * 1000
        last = now
        onSample({
          t: Date.now(),
          source: 'generator',
          target: this.#target,
          instance: String(process.pid),
          cpuPercent: elapsedUs > 0 ? (usedUs / elapsedUs) * 100 : null,
          memoryBytes: process.memoryUsage.rss(),
          memoryLimitBytes: null,
          cpuLimit: null,
          state: 'running',
        })
      },
      (error) => errors.report(toMonitorError(error, 'bad-response', 'generator monitor')),
    )
  }

  async stop(): Promise<void> {
    await this.#loop?.stop()
    this.#loop = undefined
  }
}
