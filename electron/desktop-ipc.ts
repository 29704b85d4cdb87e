// IPC handlers of the desktop-only channels: secrets (set and forget, never read back) and the
// files exports and reports wrote (open, show in folder, save a copy through a save dialog).
// Same rules as the Api's (./api-ipc.ts): the sender is checked, the arguments parsed, the answer an
// Envelope.
import { copyFile } from 'node:fs/promises'
import { dirname, extname, join } from 'node:path'
import { app, dialog, ipcMain, shell, type BrowserWindow, type IpcMainInvokeEvent } from 'electron'
import type { Envelope } from '../engine/api/transport/client.ts'
import { ApiError, toErrorBody } from '../engine/api/errors.ts'
import { checkDownloadable } from '../engine/api/files.ts'
import { argumentWhere } from '../engine/api/schemas.ts'
import { desktopArgNames, desktopArgSchemas, type DesktopChannel } from './desktop-args.ts'
import type { EngineProcess } from './engine-process.ts'
import { refused } from './api-ipc.ts'
import type { Prefs } from './prefs.ts'
import { desktopChannels } from './protocol.ts'
import type { SecretStore } from './secrets.ts'

export function registerDesktopIpc(opts: {
  engine: EngineProcess
  secrets: SecretStore
  isTrusted: (event: IpcMainInvokeEvent) => boolean
  /** The engine's data folder: only files in its exports/ and reports/ may be opened or copied. */
  dataDir: string
  prefs: Prefs
  window: () => BrowserWindow | null
}): () => void {
  const { engine, secrets, isTrusted, dataDir, prefs } = opts
  // Every channel handled here, so the returned cleanup removes exactly what was registered.
  const registered: string[] = []
  const register = (channel: string, listener: Parameters<typeof ipcMain.handle>[1]): void => {
    ipcMain.handle(channel, listener)
    registered.push(channel)
  }

  /** Check the sender, parse the arguments, run, and wrap the outcome in an Envelope. */
  const handle = <C extends DesktopChannel, T>(
    channel: C,
    run: (args: (typeof desktopArgSchemas)[C]['_zod']['output']) => T | Promise<T>,
  ) => {
    register(channel, async (event, ...raw: unknown[]): Promise<Envelope<Awaited<T>>> => {
      if (!isTrusted(event)) return refused()
      const parsed = desktopArgSchemas[channel].safeParse(raw)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        return {
          ok: false,
          error: {
            code: 'bad-input',
            message: `${channel}: ${argumentWhere(desktopArgNames[channel], issue?.path ?? [])} ${issue?.message ?? 'is invalid'}`,
          },
        }
      }
      try {
        return { ok: true, result: await run(parsed.data) }
      } catch (err) {
        return { ok: false, error: toErrorBody(err) }
      }
    })
  }

  // Plain answers (no Envelope): the page only shows them, and a refused sender learns nothing.
  register(desktopChannels.secretsAvailable, (event) => isTrusted(event) && secrets.available())
  register(desktopChannels.secretsList, (event) => (isTrusted(event) ? secrets.names() : []))
  handle(desktopChannels.secretsSet, ([name, value]) => {
    secrets.set(name, value)
    engine.setSecrets({ [name]: value })
    return null
  })
  handle(desktopChannels.secretsDelete, ([name]) => {
    secrets.delete(name)
    engine.setSecrets({ [name]: null })
    return null
  })

  /** The page names a path (an export's answer); main accepts only files in exports/ or reports/. */
  const checked = async (path: string) => {
    const check = await checkDownloadable(dataDir, path)
    if (!check.ok) throw new ApiError(check.status === 404 ? 'not-found' : 'bad-input', check.message)
    return check
  }

  handle(desktopChannels.filesOpen, async ([path]) => {
    const file = await checked(path)
    const failure = await shell.openPath(file.path)
    if (failure) throw new ApiError('unavailable', `could not open ${file.name}: ${failure}`)
    return null
  })
  handle(desktopChannels.filesReveal, async ([path]) => {
    shell.showItemInFolder((await checked(path)).path)
    return null
  })
  handle(desktopChannels.filesSaveAs, async ([path]) => {
    const file = await checked(path)
    const ext = extname(file.name).slice(1)
    const options = {
      title: `Save a copy of ${file.name}`,
      defaultPath: join(prefs.read().saveDir ?? app.getPath('documents'), file.name),
      filters: ext ? [{ name: ext.toUpperCase(), extensions: [ext] }] : [],
    }
    const win = opts.window()
    const answer = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options)
    if (answer.canceled || !answer.filePath) return null
    await copyFile(file.path, answer.filePath)
    // The next save dialog opens where this one went.
    prefs.update({ saveDir: dirname(answer.filePath) })
    return { path: answer.filePath }
  })

  return () => {
    for (const channel of registered) ipcMain.removeHandler(channel)
  }
}
