// PDF reports in the desktop app: the engine writes the report's HTML, and Electron's own
// Chromium prints it (webContents.printToPDF), so a user's machine needs no separate Chromium.
// The printing window lives in its own in-memory session (PRINT_PARTITION), never the app
// window's: its request filter and permission handler cannot touch the app's session, and the
// report page shares no storage with it. It is hidden and sandboxed, with JavaScript off, and it
// may load the report file and nothing else.
import { BrowserWindow, session, type Session } from 'electron'
import { writeFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { footerTemplate } from '../engine/report/pdf.ts'

/** No "persist:" prefix: the session lives in memory and is gone when the app quits. */
export const PRINT_PARTITION = 'cannonade-print'

let allowedUrl: string | null = null
let printSession: Session | null = null

function configure(): Session {
  if (printSession) return printSession
  const s = session.fromPartition(PRINT_PARTITION)
  // The report never fetches: only the file being printed may load.
  s.webRequest.onBeforeRequest((details, callback) => callback({ cancel: details.url !== allowedUrl }))
  s.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
  s.setPermissionCheckHandler(() => false)
  printSession = s
  return s
}

/** One report at a time: the session allows one file, and printing takes a second or two. */
let queue: Promise<unknown> = Promise.resolve()

export function printHtmlToPdf(htmlPath: string): Promise<string> {
  const job = queue.then(() => print(htmlPath))
  queue = job.catch(() => undefined)
  return job
}

async function print(htmlPath: string): Promise<string> {
  const win = new BrowserWindow({
    show: false,
    webPreferences: {
      session: configure(),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      javascript: false,
    },
  })
  allowedUrl = pathToFileURL(htmlPath).toString()
  try {
    await win.loadFile(htmlPath)
    const pdf = await win.webContents.printToPDF({
      pageSize: 'A4',
      printBackground: true,
      displayHeaderFooter: true,
      headerTemplate: '<div></div>',
      footerTemplate: footerTemplate('Cannonade report'),
      margins: { top: 0.55, bottom: 0.63, left: 0.47, right: 0.47 },
      generateDocumentOutline: true,
      generateTaggedPDF: true,
    })
    const out = htmlPath.replace(/\.html$/, '.pdf')
    await writeFile(out, pdf)
    return out
  } finally {
    allowedUrl = null
    win.destroy()
  }
}
