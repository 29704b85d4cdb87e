// IPC handlers: one per Api channel plus the desktop channels. Every handler checks that the
// sender is our own page, parses its arguments with the channel's zod tuple (EXAMPLES.md 2), and
// answers with an Envelope (contextBridge would strip an error's code and field).
import { ipcMain, type IpcMainInvokeEvent } from 'electron'
import { argSchemas, type Channel } from '../engine/api.ts'
import type { Envelope } from '../engine/server/client.ts'
import { toErrorBody } from '../engine/server/dispatch.ts'
import { parseArgs } from '../engine/api.ts'
import type { EngineProcess } from './engine-process.ts'
import { desktopArgSchemas, desktopChannels } from './protocol.ts'
import type { SecretStore } from './secrets.ts'

const CHANNELS = Object.keys(argSchemas) as Channel[]

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
}): () => void {
  const { engine, secrets, isTrusted } = opts
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, async (event, ...args: unknown[]): Promise<Envelope<unknown>> => {
      if (!isTrusted(event)) return refused()
      try {
        // Parsed here, where the call enters main; the engine parses again (its own entry point).
        parseArgs(channel, args)
      } catch (err) {
        return { ok: false, error: toErrorBody(err) }
      }
      return engine.call(channel, args)
    })
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

  ipcMain.handle(desktopChannels.secretsAvailable, (event) => isTrusted(event) && secrets.available())
  ipcMain.handle(desktopChannels.secretsList, (event) => (isTrusted(event) ? secrets.names() : []))
  ipcMain.handle(desktopChannels.secretsSet, (event, ...args: unknown[]) =>
    guard(event, desktopChannels.secretsSet, args, () => {
      const [name, value] = desktopArgSchemas[desktopChannels.secretsSet].parse(args)
      secrets.set(name, value)
      engine.setSecrets({ [name]: value })
      return null
    }),
  )
  ipcMain.handle(desktopChannels.secretsDelete, (event, ...args: unknown[]) =>
    guard(event, desktopChannels.secretsDelete, args, () => {
      const [name] = desktopArgSchemas[desktopChannels.secretsDelete].parse(args)
      secrets.delete(name)
      engine.setSecrets({ [name]: null })
      return null
    }),
  )

  return () => {
    for (const channel of [
      ...CHANNELS,
      desktopChannels.secretsAvailable,
      desktopChannels.secretsList,
      desktopChannels.secretsSet,
      desktopChannels.secretsDelete,
    ]) {
      ipcMain.removeHandler(channel)
    }
  }
}
