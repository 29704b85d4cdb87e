// Printing the report's HTML to PDF with headless Chromium (playwright-core, no browser download:
// Debian's Chromium or CANNONADE_CHROMIUM). The desktop app may print with Electron's printToPDF
// instead; the HTML is the same.
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { ApiError } from '../api/errors.ts'
import type { ReportStage } from '../api/types.ts'
import { esc } from './format.ts'

export type { ReportStage }

export interface ReportProgress {
  stage: ReportStage
  /** Milliseconds since the report started. */
  elapsedMs: number
}

export interface PdfOptions {
  /** Chromium binary; default CANNONADE_CHROMIUM, else /usr/bin/chromium. */
  executablePath?: string
  /** Text on the left of every page's footer (the report's title, say). */
  footerText?: string
  timeoutMs?: number
  onProgress?: (p: ReportProgress) => void
}

export const DEFAULT_CHROMIUM = '/usr/bin/chromium'

/** Flags for headless Debian Chromium here: no sandbox as root, no GPU, no calls home. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
]

export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CANNONADE_CHROMIUM ?? DEFAULT_CHROMIUM
}

/** Null when Chromium can be used, else why not (naming the path and the variable to set). */
export function chromiumProblem(path = chromiumPath()): string | null {
  if (existsSync(path)) return null
  return `Chromium was not found at ${path}: install it (Debian/Ubuntu: apt-get install chromium) or set CANNONADE_CHROMIUM to the path of a Chromium or Chrome binary`
}

/** The footer Chromium draws on every page: title left, "page / pages" right. */
export function footerTemplate(text: string): string {
  return `<div style="font-size:7.5px;font-family:Arial,'Liberation Sans',sans-serif;color:#64748b;width:100%;padding:0 12mm;display:flex;justify-content:space-between;">
<span>${esc(text)}</span><span>Page <span class="pageNumber"></span> / <span class="totalPages"></span></span></div>`
}

/** Print `html` to `outPath`: A4, backgrounds, a numbered footer, headings as the PDF's outline. */
export async function renderPdf(html: string, outPath: string, opts: PdfOptions = {}): Promise<void> {
  const started = Date.now()
  const executablePath = opts.executablePath ?? chromiumPath()
  const problem = chromiumProblem(executablePath)
  if (problem) throw new ApiError('unavailable', problem)
  opts.onProgress?.({ stage: 'rendering pdf', elapsedMs: Date.now() - started })
  // Loaded here, not at the top: building HTML (and the whole CLI) does not pay for playwright.
  const { chromium } = await import('playwright-core')
  let browser: Awaited<ReturnType<typeof chromium.launch>>
  try {
    browser = await chromium.launch({
      executablePath,
      args: CHROMIUM_ARGS,
      timeout: opts.timeoutMs ?? 30_000,
    })
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err)
    throw new ApiError(
      'unavailable',
      `Chromium at ${executablePath} did not start (${why}); set CANNONADE_CHROMIUM to a working Chromium or Chrome binary`,
    )
  }
  try {
    const page = await browser.newPage()
    // The HTML has no external resources; block any request anyway, so a report never phones out.
    await page.route('**/*', (route) => route.abort())
    await page.setContent(html, { waitUntil: 'load', timeout: opts.timeoutMs ?? 30_000 })
    await mkdir(dirname(outPath), { recursive: true })
    await page.pdf({
      path: outPath,
      format: 'A4',
      printBackground: true,
      displayHeaderFooter: true,
      headerTemplate: '<div></div>',
      footerTemplate: footerTemplate(opts.footerText ?? 'Cannonade report'),
      margin: { top: '14mm', bottom: '16mm', left: '12mm', right: '12mm' },
      outline: true,
      tagged: true,
    })
  } finally {
    await browser.close()
  }
}
