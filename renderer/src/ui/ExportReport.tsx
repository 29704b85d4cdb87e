// "Export report": a PDF (or HTML) comparison report of the chosen runs. The engine renders it with
// headless Chromium, which takes a few seconds; the engine sends no progress for it, so the busy
// state says what is happening and for how long, then offers the file (FileResult).
import { useEffect, useState } from 'react'
import type { ExportResult } from '../../../engine/api/types.ts'
import { useAction, useApi } from '../api/context.tsx'
import { Button } from './Common.tsx'
import { FileResult } from './FileResult.tsx'

type Format = 'pdf' | 'html'

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
}: {
  runIds: readonly number[]
  testId: string
  label?: string
}) {
  const api = useApi()
  const [format, setFormat] = useState<Format>('pdf')
  const [result, setResult] = useState<(ExportResult & { format: Format }) | null>(null)
  const create = useAction(async () => {
    setResult(null)
    const r = await api.reports.create([...runIds], { format })
    setResult({ ...r, format })
  })
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
        <span className="muted" role="status" data-testid={`${testId}-stage`}>
          {format === 'pdf'
            ? `Rendering the report of ${runs} (tables, charts, then a PDF through headless Chromium)…`
            : `Writing the HTML report of ${runs}…`}{' '}
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
