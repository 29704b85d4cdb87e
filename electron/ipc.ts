// IPC handlers: one per Api channel plus the desktop channels. Every handler checks that the sender
// is our own page, parses its arguments with the channel's zod tuple (engine/api/schemas.ts), and
// answers with an Envelope (contextBridge would strip an error's code and field).
import { ipcMain, shell, type IpcMainInvokeEvent } from 'electron'
import { CHANNELS } from '../engine/api/channels.ts'
import type { Envelope } from '../engine/api/client.ts'
import { toErrorBody } from '../engine/api/errors.ts'
import { parseArgs } from '../engine/api/schemas.ts'
import { checkDownloadable } from '../engine/api/files.ts'
import type { EngineProcess } from './engine-process.ts'
import { desktopArgSchemas, desktopChannels } from './protocol.ts'
import { printHtmlToPdf } from './print.ts'
import type { SecretStore } from './secrets.ts'

function refused(): Envelope<never> {
  return {
    ok: false,
    error: { code: 'bad-input', message: 'refused: the call did not come from the Cannonade window' },
  }
}

export function registerIpc(opts: {
  engine: EngineProcess
  secrets: SecretStore
  isTrusted: (event: IpcMainInvokeEvent) => boolean
  /** The engine's data folder: only files in its exports/ and reports/ may be opened. */
  dataDir: string
}): () => void {
  const { engine, secrets, isTrusted, dataDir } = opts
  // Every channel handled here, so the returned cleanup removes exactly what was registered.
  const registered: string[] = []
  const handle = (channel: string, listener: Parameters<typeof ipcMain.handle>[1]): void => {
    ipcMain.handle(channel, listener)
    registered.push(channel)
  }

  for (const channel of CHANNELS) {
    handle(channel, async (event, ...args: unknown[]): Promise<Envelope<unknown>> => {
      if (!isTrusted(event)) return refused()
      try {
        // Parsed here, where the call enters main; the engine parses again (its own entry point).
        parseArgs(channel, args)
      } catch (err) {
        return { ok: false, error: toErrorBody(err) }
      }
      if (channel === 'reports:create') return createReport(args)
      return engine.call(channel, args)
    })
  }

  // A PDF report: the engine builds the HTML, Electron's Chromium prints it (electron/print.ts).
  const createReport = async (args: unknown[]): Promise<Envelope<unknown>> => {
    const [runIds, opts] = parseArgs('reports:create', args)
    if (opts?.format === 'html') return engine.call('reports:create', args)
    const html = await engine.call('reports:create', [runIds, { format: 'html' }])
    if (!html.ok) return html
    try {
      const result = html.result as { path: string | null }
      if (!result.path) throw new Error('the engine returned no report file')
      return { ok: true, result: { ...result, path: await printHtmlToPdf(result.path) } }
    } catch (err) {
      return { ok: false, error: toErrorBody(err) }
    }
  }

  const guard = <T>(
    event: IpcMainInvokeEvent,
    channel: keyof typeof desktopArgSchemas,
    args: unknown[],
    run: (parsed: unknown[]) => T,
  ): Envelope<T> => {
    if (!isTrusted(event)) return refused()
    const parsed = desktopArgSchemas[channel].safeParse(args)
    if (!parsed.success)
      return {
        ok: false,
        error: {
          code: 'bad-input',
          message: `${channel}: ${parsed.error.issues[0]?.message ?? 'bad arguments'}`,
        },
      }
    try {
      return { ok: true, result: run(parsed.data) }
    } catch (err) {
      return { ok: false, error: toErrorBody(err) }
    }
  }

  handle(desktopChannels.secretsAvailable, (event) => isTrusted(event) && secrets.available())
  handle(desktopChannels.secretsList, (event) => (isTrusted(event) ? secrets.names() : []))
  handle(desktopChannels.secretsSet, (event, ...args: unknown[]) =>
    guard(event, desktopChannels.secretsSet, args, () => {
      const [name, value] = desktopArgSchemas[desktopChannels.secretsSet].parse(args)
      secrets.set(name, value)
      engine.setSecrets({ [name]: value })
      return null
    }),
  )
  handle(desktopChannels.secretsDelete, (event, ...args: unknown[]) =>
    guard(event, desktopChannels.secretsDelete, args, () => {
      const [name] = desktopArgSchemas[desktopChannels.secretsDelete].parse(args)
      secrets.delete(name)
      engine.setSecrets({ [name]: null })
      return null
    }),
  )

  // Opening a file: the page names a path (an export's answer), main checks it lies in the data
  // folder's exports/ or reports/ (symlinks resolved) before the shell sees it.
  const fileHandler =
    (channel: typeof desktopChannels.filesOpen | typeof desktopChannels.filesReveal) =>
    async (event: IpcMainInvokeEvent, ...args: unknown[]): Promise<Envelope<null>> => {
      if (!isTrusted(event)) return refused()
      const parsed = desktopArgSchemas[channel].safeParse(args)
      if (!parsed.success)
        return { ok: false, error: { code: 'bad-input', message: `${channel}: bad arguments` } }
      const check = await checkDownloadable(dataDir, parsed.data[0])
      if (!check.ok)
        return {
          ok: false,
          error: { code: check.status === 404 ? 'not-found' : 'bad-input', message: check.message },
        }
      if (channel === desktopChannels.filesReveal) {
        shell.showItemInFolder(check.path)
        return { ok: true, result: null }
      }
      const failure = await shell.openPath(check.path)
      return failure
        ? { ok: false, error: { code: 'unavailable', message: `could not open ${check.name}: ${failure}` } }
        : { ok: true, result: null }
    }
  handle(desktopChannels.filesOpen, fileHandler(desktopChannels.filesOpen))
  handle(desktopChannels.filesReveal, fileHandler(desktopChannels.filesReveal))

  return () => {
    for (const channel of registered) ipcMain.removeHandler(channel)
  }
}
