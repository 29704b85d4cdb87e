// ELECTRON STAND-IN (test harness, not Electron): state shared by the stand-in's modules in the
// process that runs the app's real built main (dist-electron/main.js): the Chromium it drives over
// CDP, and a record of everything the app asked of the OS (opening files and links, dialogs,
// permission decisions, IPC calls…), which tests read back through the driver's evaluate().
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { CHROMIUM_ARGS } from '../../../engine/report/pdf.ts'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export interface StandInRecord {
  kind: string
  [key: string]: unknown
}

export function log(line: string): void {
  process.stderr.write(`[electron stand-in] ${line}\n`)
}

export const records: StandInRecord[] = []

export function record(kind: string, data: Record<string, unknown> = {}): void {
  records.push({ kind, ...data })
}

/** Answers the tests queue for dialogs (a stand-in has no one to click them). */
export const dialogAnswers = {
  save: [] as ({ canceled: true } | { canceled: false; filePath: string })[],
  messageBox: [] as number[],
}

interface Chromium {
  browser: Browser
  endpoint: string
  pid: number
  /** Its user data folder (temporary; removed on close, and by the driver if this process is killed). */
  profile: string
  close(): Promise<void>
}

let running: Chromium | null = null
let proc: ChildProcess | null = null

/** Kill Chromium however this process ends (a test that fails must not leave a browser behind). */
process.on('exit', () => proc?.kill('SIGKILL'))

/** Headless Chromium with a DevTools endpoint that the stand-in and the test both connect to. */
export async function startChromium(): Promise<Chromium> {
  if (running) return running
  const profile = mkdtempSync(join(tmpdir(), 'electron-standin-chromium-'))
  const child = spawn(
    CHROMIUM,
    [
      '--headless',
      ...CHROMIUM_ARGS,
      '--hide-scrollbars',
      '--mute-audio',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  proc = child
  const endpoint = await new Promise<string>((resolve, reject) => {
    let text = ''
    const timer = setTimeout(() => reject(new Error(`Chromium gave no DevTools endpoint:\n${text}`)), 30_000)
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(text)
      if (m?.[1]) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`Chromium exited (${code}) before it was ready:\n${text}`))
    })
  })
  const browser = await chromium.connectOverCDP(endpoint)
  log(`Chromium ${browser.version()} over CDP at ${endpoint} (pid ${child.pid})`)
  running = {
    browser,
    endpoint,
    pid: child.pid ?? -1,
    profile,
    async close() {
      running = null
      await browser.close().catch(() => undefined)
      child.kill('SIGTERM')
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve()
        else child.once('exit', () => resolve())
      })
      rmSync(profile, { recursive: true, force: true })
    },
  }
  return running
}

export function browser(): Browser {
  if (!running) throw new Error('electron stand-in: Chromium is not running yet (before app ready?)')
  return running.browser
}

export function chromiumRunning(): Chromium | null {
  return running
}

/**
 * How an Electron URL of a custom scheme looks to Chromium. Chromium without Electron cannot
 * register app:// as a privileged scheme, so the stand-in serves `scheme://host/path` at
 * `https://host.scheme.scheme.standin.invalid/path` (`.invalid` never resolves; every such request
 * is answered by the app's protocol handler through request interception) and maps URLs back
 * wherever the app sees them (sender frames, will-navigate, getURL).
 */
const MAPPED = /^https:\/\/([^/]+)\.([a-z][a-z0-9+.-]*)\.scheme\.standin\.invalid(\/[^#]*)?(#.*)?$/

export function toChromiumUrl(url: string, customSchemes: ReadonlySet<string>): string {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]+)([^#]*)(#.*)?$/.exec(url)
  if (!m || !customSchemes.has(m[1]!)) return url
  return `https://${m[2]}.${m[1]}.scheme.standin.invalid${m[3] || '/'}${m[4] ?? ''}`
}

export function toElectronUrl(url: string): string {
  const m = MAPPED.exec(url)
  return m ? `${m[2]}://${m[1]}${m[3] ?? '/'}${m[4] ?? ''}` : url
}

/** Schemes some session handles with protocol.handle (mapped as above). */
export const customSchemes = new Set<string>()

/** An Electron-style event whose default the app may prevent. */
export interface PreventableEvent {
  defaultPrevented: boolean
  preventDefault(): void
}

export function preventableEvent(): PreventableEvent {
  const event = {
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true
    },
  }
  return event
}
