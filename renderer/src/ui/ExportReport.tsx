// "Export report": a PDF (or HTML) comparison report of the chosen runs. Rendering takes a few
// seconds (tables, charts, then Chromium prints the PDF); the engine reports each stage
// (reports.onProgress), so the busy state says which one is going and for how long, then offers
// the file (FileResult).
import { useEffect, useState } from 'react'
import type { Api } from '#engine/api/api.ts'
import type { ExportResult, ReportProgressEvent, ReportStage } from '#engine/api/types.ts'
import { useAction, useApi } from '../api/context.tsx'
import { Button } from './Primitives.tsx'
import { FileResult } from './FileResult.tsx'

type Format = 'pdf' | 'html'
type ReportCompare = NonNullable<NonNullable<Parameters<Api['reports']['create']>[1]>['compare']>

const STAGES: Record<Format, readonly ReportStage[]> = {
  pdf: ['loading data', 'building html', 'rendering pdf', 'done'],
  html: ['loading data', 'building html', 'done'],
}

const STAGE_TEXT: Record<ReportStage, string> = {
  'loading data': 'Loading the runs',
  'building html': 'Drawing tables and charts',
  'rendering pdf': 'Printing the PDF',
  done: 'Writing the file',
}

/** The stage the engine last reported for this report (null until the first event). */
function useReportStage(runIds: readonly number[], format: Format, busy: boolean): ReportStage | null {
  const api = useApi()
  const [stage, setStage] = useState<ReportStage | null>(null)
  // A new report starts without the last one's stage (state adjusted while rendering, not in an effect).
  const [wasBusy, setWasBusy] = useState(busy)
  if (wasBusy !== busy) {
    setWasBusy(busy)
    setStage(null)
  }
  // Callers pass a fresh array each render: subscribe per set of runs, not per array.
  const key = runIds.join(',')
  useEffect(() => {
    if (!busy) return
    return api.reports.onProgress((e: ReportProgressEvent) => {
      if (e.format === format && e.runIds.join(',') === key) setStage(e.stage)
    })
  }, [api, busy, format, key])
  return busy ? stage : null
}

/** Seconds since it was mounted (mounted only while busy). */
export function Elapsed() {
  const [seconds, setSeconds] = useState(0)
  useEffect(() => {
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000)
    return () => clearInterval(timer)
  }, [])
  return <span data-testid="elapsed">{seconds} s</span>
}

export function ExportReport({
  runIds,
  testId,
  label = 'Export report',
  compare,
}: {
  runIds: readonly number[]
  testId: string
  label?: string
  /** The comparison the page shows (baseline, margin, curve): the report compares the same way. */
  compare?: ReportCompare
}) {
  const api = useApi()
  const [format, setFormat] = useState<Format>('pdf')
  const [result, setResult] = useState<(ExportResult & { format: Format }) | null>(null)
  const create = useAction(async () => {
    setResult(null)
    const r = await api.reports.create([...runIds], { format, ...(compare ? { compare } : {}) })
    setResult({ ...r, format })
  })
  const stage = useReportStage(runIds, format, create.busy)
  const steps = STAGES[format]
  const runs = `${runIds.length} run${runIds.length === 1 ? '' : 's'}`
  return (
    <div
      className="export-report"
      data-testid={testId}
      data-state={create.busy ? 'busy' : result ? 'done' : 'idle'}
    >
      <span className="inline-label">
        <select
          value={format}
          onChange={(e) => setFormat(e.target.value === 'html' ? 'html' : 'pdf')}
          aria-label="Report format"
          data-testid={`${testId}-format`}
        >
          <option value="pdf">PDF</option>
          <option value="html">HTML</option>
        </select>
        <Button
          variant="primary"
          busy={create.busy}
          disabled={runIds.length === 0}
          onClick={() => void create.run()}
          data-testid={`${testId}-create`}
          title={runIds.length ? `A comparison report of ${runs}` : 'Select runs first'}
        >
          {label}
          {runIds.length > 1 ? ` (${runIds.length})` : ''}
        </Button>
      </span>
      {create.busy ? (
        <span className="muted" role="status" data-testid={`${testId}-stage`} data-stage={stage ?? ''}>
          {stage
            ? `${STAGE_TEXT[stage]} (step ${steps.indexOf(stage) + 1} of ${steps.length}) for the report of ${runs}…`
            : `Starting the ${format.toUpperCase()} report of ${runs}…`}{' '}
          <Elapsed />
        </span>
      ) : null}
      {create.error ? (
        <span className="field-error" role="alert" data-testid={`${testId}-error`}>
          Report failed: {create.error}
        </span>
      ) : null}
      {result?.path ? (
        <FileResult
          path={result.path}
          detail={`${result.format.toUpperCase()} report`}
          testId={`${testId}-file`}
        />
      ) : null}
    </div>
  )
}
