// PDF reports in the desktop app: the engine writes the report's HTML, and Electron's own
// Chromium prints it (webContents.printToPDF), so a user's machine needs no separate Chromium.
// The page has no script and no external resource; the window is hidden, sandboxed, JS off.
import { BrowserWindow } from 'electron'
import { writeFile } from 'node:fs/promises'
import { footerTemplate } from '../engine/report/pdf.ts'

export async function printHtmlToPdf(htmlPath: string): Promise<string> {
  const win = new BrowserWindow({
    show: false,
    webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false },
  })
  try {
    // The report never fetches: refuse anything but the file itself.
    win.webContents.session.webRequest.onBeforeRequest({ urls: ['http://*/*', 'https://*/*'] }, (_d, cb) =>
      cb({ cancel: true }),
    )
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
    win.destroy()
  }
}
