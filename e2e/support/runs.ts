// Runs started straight through the engine (not the UI), for tests that need finished runs.
import type { RunEndedEvent } from '../../engine/api/types.ts'
import type { App } from './app.ts'

/** The engine's demo target base URL (settings.get().demoUrl). */
export async function demoBase(a: App): Promise<string> {
  const { demoUrl } = (await a.engine.settings.get()) as { demoUrl?: string }
  if (!demoUrl) throw new Error('engine has no demo target')
  return demoUrl.replace(/\/+$/, '')
}

/** Start a run through the engine and resolve when it has ended. */
export async function runAndWait(a: App, config: unknown): Promise<RunEndedEvent> {
  let runId = -1
  const early: RunEndedEvent[] = []
  let resolve: ((e: RunEndedEvent) => void) | null = null
  const off = a.engine.runs.onEnded((e) => (e.runId === runId && resolve ? resolve(e) : early.push(e)))
  try {
    runId = (await a.engine.runs.start(config)).runId
    const ended = early.find((e) => e.runId === runId)
    return ended ?? (await new Promise<RunEndedEvent>((r) => (resolve = r)))
  } finally {
    off()
  }
}

/** Start a short demo run through the engine and resolve when it has ended. */
export async function demoRun(
  a: App,
  name: string,
  connections: number,
  duration = 2,
): Promise<RunEndedEvent> {
  const demoUrl = await demoBase(a)
  return runAndWait(a, {
    version: 1,
    name,
    targets: [{ name: 'demo', url: `${demoUrl}/ads?limit=20` }],
    load: { connections, duration },
    cooldownSeconds: 0,
  })
}
