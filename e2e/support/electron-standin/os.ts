// ELECTRON STAND-IN (test harness, not Electron): the modules that reach the operating system.
// None of them does: shell and clipboard record what the app asked, dialogs answer from a queue
// the test fills (state.ts dialogAnswers; a cancelled save when empty), the screen is one
// 1920×1080 display, safeStorage encrypts with AES-256-GCM under a key kept in a file outside the
// app's data folder (ELECTRON_STANDIN_KEYRING: the stand-in's "OS keychain"), and net.fetch reads
// file: URLs itself (Node's fetch has no file: support).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { session } from './session.ts'
import { dialogAnswers, record } from './state.ts'

export const shell = {
  async openExternal(url: string): Promise<void> {
    record('shell-open-external', { url })
  },
  async openPath(path: string): Promise<string> {
    record('shell-open-path', { path })
    return existsSync(path) ? '' : `no such file: ${path}`
  },
  showItemInFolder(path: string): void {
    record('shell-show-item', { path })
  },
  beep(): void {},
}

export const clipboard = {
  text: '',
  async writeText(text: string): Promise<void> {
    clipboard.text = text
    record('clipboard-write', { length: text.length })
  },
  readText(): string {
    return clipboard.text
  },
}

/** dialog.x(window?, options): the window is optional, as in Electron. */
function optionsOf(args: unknown[]): Record<string, unknown> {
  const last = args[args.length - 1]
  return typeof last === 'object' && last !== null && !('webContents' in last)
    ? (last as Record<string, unknown>)
    : {}
}

export const dialog = {
  async showSaveDialog(...args: unknown[]): Promise<{ canceled: boolean; filePath?: string }> {
    const options = optionsOf(args)
    const answer = dialogAnswers.save.shift() ?? { canceled: true as const }
    record('dialog-save', { options, answer })
    return answer.canceled ? { canceled: true, filePath: '' } : { canceled: false, filePath: answer.filePath }
  },
  async showMessageBox(...args: unknown[]): Promise<{ response: number; checkboxChecked: boolean }> {
    const options = optionsOf(args)
    const response = dialogAnswers.messageBox.shift() ?? 0
    record('dialog-message-box', { options, response })
    return { response, checkboxChecked: false }
  },
  async showOpenDialog(...args: unknown[]): Promise<{ canceled: boolean; filePaths: string[] }> {
    record('dialog-open', { options: optionsOf(args) })
    return { canceled: true, filePaths: [] }
  },
  showErrorBox(title: string, content: string): void {
    record('dialog-error-box', { title, content })
  },
}

const DISPLAY = {
  id: 1,
  bounds: { x: 0, y: 0, width: 1920, height: 1080 },
  workArea: { x: 0, y: 0, width: 1920, height: 1080 },
  scaleFactor: 1,
  rotation: 0,
}

export const screen = {
  getAllDisplays: () => [structuredClone(DISPLAY)],
  getPrimaryDisplay: () => structuredClone(DISPLAY),
  getDisplayMatching: () => structuredClone(DISPLAY),
}

function keyringKey(): Buffer {
  const dir = process.env.ELECTRON_STANDIN_KEYRING
  if (!dir) throw new Error('electron stand-in: ELECTRON_STANDIN_KEYRING is not set (the driver sets it)')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'safe-storage.key')
  if (!existsSync(file)) writeFileSync(file, randomBytes(32), { mode: 0o600 })
  return readFileSync(file)
}

const MAGIC = Buffer.from('standin-v1:')

export const safeStorage = {
  isEncryptionAvailable: () => true,
  // Not one of Electron's Linux backends: the app only refuses 'basic_text' (no real encryption).
  getSelectedStorageBackend: () => 'electron_standin_aes_gcm',
  encryptString(plain: string): Buffer {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', keyringKey(), iv)
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    record('safe-storage-encrypt', { bytes: body.length })
    return Buffer.concat([MAGIC, iv, cipher.getAuthTag(), body])
  },
  decryptString(blob: Buffer): string {
    if (!blob.subarray(0, MAGIC.length).equals(MAGIC))
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.')
    const iv = blob.subarray(MAGIC.length, MAGIC.length + 12)
    const tag = blob.subarray(MAGIC.length + 12, MAGIC.length + 28)
    const decipher = createDecipheriv('aes-256-gcm', keyringKey(), iv)
    decipher.setAuthTag(tag)
    return Buffer.concat([decipher.update(blob.subarray(MAGIC.length + 28)), decipher.final()]).toString(
      'utf8',
    )
  },
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
}

export const net = {
  async fetch(url: string, init?: RequestInit): Promise<Response> {
    if (!url.startsWith('file:')) return fetch(url, init)
    try {
      const body = await readFile(fileURLToPath(url))
      const type = TYPES[extname(url).toLowerCase()] ?? 'application/octet-stream'
      return new Response(body, { status: 200, headers: { 'content-type': type } })
    } catch {
      return new Response('not found', { status: 404 })
    }
  },
}

export const protocol = {
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    record('register-schemes-as-privileged', { schemes })
  },
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void {
    session.defaultSession.protocol.handle(scheme, handler)
  },
  unhandle(scheme: string): void {
    session.defaultSession.protocol.unhandle(scheme)
  },
  isProtocolHandled(scheme: string): boolean {
    return session.defaultSession.protocol.isProtocolHandled(scheme)
  },
}
