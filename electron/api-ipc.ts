// IPC handlers for the Api: one per channel. Every handler checks that the sender is our own page,
// parses its arguments with the channel's zod tuple (engine/api/schemas.ts), and answers with an Envelope
// (contextBridge would strip an error's code and field). PDF reports are printed here, by
// Electron's Chromium (print.ts), with their progress shown as the report's own stages.
// The desktop-only channels (secrets, files) are in ./desktop-ipc.ts.
import { ipcMain, type IpcMainInvokeEvent } from 'electron'
import { CHANNELS, type EventName } from '../engine/api/channels.ts'
import type { Envelope } from '../engine/api/transport/client.ts'
import { toErrorBody } from '../engine/api/errors.ts'
import { parseArgs } from '../engine/api/schemas.ts'
import type { ReportProgressEvent } from '../engine/api/types.ts'
import type { EngineProcess } from './engine-process.ts'
import { printHtmlToPdf } from './print.ts'
import type { PdfReports } from './report-progress.ts'

export function refused(): Envelope<never> {
  return {
    ok: false,
    error: { code: 'bad-input', message: 'refused: the call did not come from the Cannonade window' },
  }
}

export function registerApiIpc(opts: {
  engine: EngineProcess
  isTrusted: (event: IpcMainInvokeEvent) => boolean
  /** Send an event to the app's windows (as engine events are). */
  emit: (event: EventName, payload: unknown) => void
  reports: PdfReports
}): () => void {
  const { engine, isTrusted, emit, reports } = opts

  const createPdf = async (runIds: number[]): Promise<Envelope<unknown>> => {
    const started = Date.now()
    const stage = (s: ReportProgressEvent['stage']) =>
      emit('reports:progress', {
        type: 'report-progress',
        runIds,
        format: 'pdf',
        stage: s,
        elapsedMs: Date.now() - started,
      } satisfies ReportProgressEvent)
    reports.begin(runIds)
    try {
      const html = await engine.call('reports:create', [runIds, { format: 'html' }])
      if (!html.ok) return html
      const result = html.result as { path: string | null }
      if (!result.path) throw new Error('the engine returned no report file')
      stage('rendering pdf')
      const path = await printHtmlToPdf(result.path)
      stage('done')
      return { ok: true, result: { ...result, path } }
    } catch (err) {
      return { ok: false, error: toErrorBody(err) }
    } finally {
      reports.end(runIds)
    }
  }

  for (const channel of CHANNELS) {
    ipcMain.handle(channel, async (event, ...args: unknown[]): Promise<Envelope<unknown>> => {
      if (!isTrusted(event)) return refused()
      let parsed: unknown[]
      try {
        // Parsed here, where the call enters main; the engine parses again (its own entry point).
        parsed = parseArgs(channel, args) as unknown[]
      } catch (err) {
        return { ok: false, error: toErrorBody(err) }
      }
      if (channel === 'reports:create') {
        const [runIds, o] = parsed as [number[], { format: 'pdf' | 'html' } | undefined]
        if ((o?.format ?? 'pdf') === 'pdf') return createPdf(runIds)
      }
      return engine.call(channel, args)
    })
  }
  return () => {
    for (const channel of CHANNELS) ipcMain.removeHandler(channel)
  }
}
