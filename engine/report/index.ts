// Comparison reports (engine/report/README.md): the one entry point the CLI (`cannonade report`)
// and the Api host (`reports.create`) share. Load → HTML → PDF, with progress, and no half-written
// file on failure.
import { createReadStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { outputKind, prepareOutput, writeOutput, type OutputOptions } from '../exports/write.ts'
import { ApiError } from '../api/errors.ts'
import type { ExportResult } from '../api/types.ts'
import type { HistoryStore } from '../store/history-store.ts'
import { loadReportData } from './data.ts'
import { renderReportHtml, reportTitle, type ReportOptions } from './html.ts'
import { renderPdf, type PdfOptions, type ReportProgress } from './pdf.ts'
import { makePrivate } from '../paths.ts'

export { buildReportHtml, renderReportHtml, type ReportOptions } from './html.ts'
export { loadReportData, type ReportData, type RunReportData } from './data.ts'
export { chromiumPath, chromiumProblem, DEFAULT_CHROMIUM, renderPdf } from './pdf.ts'
export type { PdfOptions, ReportProgress, ReportStage } from './pdf.ts'
export { esc, fmtInt, fmtMs, fmtRate } from './format.ts'

export interface CreateReportOptions extends ReportOptions {
  /** The file to write: a PDF, or the HTML itself when format is 'html'. */
  out: string
  /** Also write the HTML here (PDF format only). */
  html?: string
  format?: 'pdf' | 'html'
  executablePath?: PdfOptions['executablePath']
  timeoutMs?: number
  onProgress?: (p: ReportProgress) => void
}

export interface CreatedReport {
  path: string
  htmlPath: string | null
  runIds: number[]
  bytes: number
  elapsedMs: number
}

function cannotWrite(path: string, err: unknown, field: string): ApiError {
  const e = err as NodeJS.ErrnoException
  return new ApiError('bad-input', `${field}: cannot write ${path}: ${e.message ?? String(err)}`, field)
}

/** The PDF, rendered by Chromium into a file: next to `out`, or a private temporary folder for a device. */
async function writePdf(
  out: string,
  opts: OutputOptions,
  render: (file: string) => Promise<void>,
): Promise<void> {
  const prepared = prepareOutput(out, opts)
  if (prepared.kind === 'file') {
    try {
      await render(prepared.path)
      makePrivate(prepared.path)
      prepared.commit()
    } catch (err) {
      prepared.discard()
      throw prepared.fail(err)
    }
    return
  }
  const tmp = mkdtempSync(join(tmpdir(), 'cannonade-report-'))
  try {
    await render(join(tmp, 'report.pdf'))
    await writeOutput(out, createReadStream(join(tmp, 'report.pdf')), opts)
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

/** The written file's size; 0 for standard output or a device. */
function sizeOf(path: string): number {
  try {
    const st = statSync(path)
    return st.isFile() ? st.size : 0
  } catch {
    return 0
  }
}

/** Build the report of `runIds` (in that order) and write it; every stage is reported. */
export async function createReport(
  store: HistoryStore,
  runIds: readonly number[],
  opts: CreateReportOptions,
): Promise<CreatedReport> {
  const started = Date.now()
  const progress = (stage: ReportProgress['stage']) =>
    opts.onProgress?.({ stage, elapsedMs: Date.now() - started })
  const out = opts.out === '-' ? '-' : resolve(opts.out)
  const htmlPath = opts.html ? (opts.html === '-' ? '-' : resolve(opts.html)) : null
  progress('loading data')
  const data = loadReportData(store, runIds, opts)
  progress('building html')
  const html = renderReportHtml(data, opts)
  const dbPath = store.db.name
  if (opts.format === 'html') await writeOutput(out, [html], { dbPath, field: 'out' })
  else {
    // Both paths are checked before Chromium starts: a refused --out writes no --html either.
    outputKind(out, { dbPath, field: 'out' })
    if (htmlPath) await writeOutput(htmlPath, [html], { dbPath, field: 'html' })
    await writePdf(out, { dbPath, field: 'out' }, (file) =>
      renderPdf(html, file, {
        executablePath: opts.executablePath,
        footerText: `Cannonade · ${reportTitle(data, opts.title)}`,
        timeoutMs: opts.timeoutMs,
        onProgress: opts.onProgress
          ? (p) => opts.onProgress?.({ ...p, elapsedMs: Date.now() - started })
          : undefined,
      }),
    )
  }
  progress('done')
  return {
    path: out,
    htmlPath: opts.format === 'html' ? null : htmlPath,
    runIds: data.runs.map((d) => d.run.runId),
    bytes: sizeOf(out),
    elapsedMs: Date.now() - started,
  }
}

/** "cannonade-report-runs-3-4-20250101-120000.pdf" */
export function reportFileName(runIds: readonly number[], format: 'pdf' | 'html', now = new Date()): string {
  const ids = [...new Set(runIds)]
  const shown = ids.length > 6 ? `${ids.slice(0, 6).join('-')}-and-${ids.length - 6}-more` : ids.join('-')
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')
  return `cannonade-report-runs-${shown}-${stamp}.${format}`
}

/**
 * The Api's `reports.create`: the report of `runIds` written into `dir` (the host picks it: the
 * data directory's reports folder, or where a save dialog pointed).
 */
export async function reportsCreate(
  store: HistoryStore,
  runIds: readonly number[],
  opts: {
    dir: string
    format?: 'pdf' | 'html'
    compare?: CreateReportOptions['compare']
    title?: string
    onProgress?: (p: ReportProgress) => void
    now?: Date
  },
): Promise<ExportResult> {
  const format = opts.format ?? 'pdf'
  try {
    mkdirSync(opts.dir, { recursive: true })
  } catch (err) {
    throw cannotWrite(opts.dir, err, 'dir')
  }
  const out = join(opts.dir, reportFileName(runIds, format, opts.now))
  const created = await createReport(store, runIds, {
    out,
    format,
    compare: opts.compare,
    title: opts.title,
    onProgress: opts.onProgress,
    now: opts.now,
  })
  return { path: created.path, runIds: created.runIds, rows: 0 }
}
