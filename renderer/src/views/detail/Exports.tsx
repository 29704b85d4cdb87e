// A run's exports: raw samples or per-second series as CSV, the JSON summary, JUnit (thresholds),
// PostgreSQL (with the engine's row progress), and the PDF/HTML report. Files land in the data
// folder's exports/ or reports/; FileResult offers them for download (web) or opening (desktop).
import { useEffect, useState } from 'react'
import type { ExportProgressEvent, ExportResult } from '#engine/api/types.ts'
import { errorMessage, useApi, useAsync } from '../../api/context.tsx'
import { Link } from '../../app/router.tsx'
import { count } from '../../lib/format.ts'
import { Button } from '../../ui/Primitives.tsx'
import { ExportReport } from '../../ui/ExportReport.tsx'
import { FileResult } from '../../ui/FileResult.tsx'

type Kind = 'csv-samples' | 'csv-series' | 'json' | 'junit' | 'pg'

const LABEL: Record<Kind, string> = {
  'csv-samples': 'CSV (every request)',
  'csv-series': 'CSV (per second)',
  json: 'JSON summary',
  junit: 'JUnit (thresholds)',
  pg: 'PostgreSQL',
}

function PgProgress({ progress }: { progress: ExportProgressEvent | null }) {
  if (!progress || progress.rowsTotal === 0)
    return (
      <span className="muted" role="status" data-testid="detail-export-pg-progress">
        Connecting to PostgreSQL…
      </span>
    )
  return (
    <span className="pg-progress" role="status" data-testid="detail-export-pg-progress">
      <progress value={progress.rowsDone} max={progress.rowsTotal} /> {count(progress.rowsDone)} of{' '}
      {count(progress.rowsTotal)} rows
      {progress.runsTotal > 1 ? ` (run ${progress.runsDone + 1} of ${progress.runsTotal})` : ''}
    </span>
  )
}

/** Runs whose raw samples an export could not hold, and where they are (pruned, or kept by agents). */
function MissingSamples({ done }: { done: { kind: Kind; result: ExportResult }[] }) {
  return (
    <>
      {done.flatMap(({ kind, result }) =>
        (result.missing ?? []).map((m) => (
          <p key={`${kind}-${m.runId}`} className="field-error" data-testid={`detail-export-${kind}-missing`}>
            {m.message}
          </p>
        )),
      )}
    </>
  )
}

export function Exports({ runId }: { runId: number }) {
  const api = useApi()
  const settings = useAsync(() => api.settings.get(), [api])
  const pgUrl = settings.data?.pgExportUrl ?? null
  const [busy, setBusy] = useState<Kind | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<{ kind: Kind; result: ExportResult }[]>([])
  const [progress, setProgress] = useState<ExportProgressEvent | null>(null)
  useEffect(() => {
    if (busy !== 'pg') return
    return api.exports.onProgress((e) => {
      if (e.runId === runId) setProgress(e)
    })
  }, [api, busy, runId])

  const handleExport = async (kind: Kind) => {
    setBusy(kind)
    setError(null)
    setProgress(null)
    try {
      const result =
        kind === 'csv-samples'
          ? await api.exports.csv(runId, { kind: 'samples' })
          : kind === 'csv-series'
            ? await api.exports.csv(runId, { kind: 'series' })
            : kind === 'json'
              ? await api.exports.json([runId])
              : kind === 'junit'
                ? await api.exports.junit(runId)
                : await api.exports.pg([runId], { url: pgUrl ?? '' })
      setDone((d) => [{ kind, result }, ...d.filter((x) => x.kind !== kind)])
    } catch (err) {
      setError(`${LABEL[kind]}: ${errorMessage(err)}`)
    } finally {
      setBusy(null)
    }
  }

  const button = (kind: Kind, testId: string, disabled = false, title?: string) => (
    <Button
      busy={busy === kind}
      disabled={disabled || (busy !== null && busy !== kind)}
      onClick={() => void handleExport(kind)}
      data-testid={testId}
      title={title}
    >
      {LABEL[kind]}
    </Button>
  )
  return (
    <div data-testid="detail-exports">
      <ExportReport runIds={[runId]} testId="detail-report" label="Report" />
      <div className="actions">
        {button('csv-samples', 'detail-export-csv')}
        {button('csv-series', 'detail-export-series')}
        {button('json', 'detail-export-json')}
        {button('junit', 'detail-export-junit')}
        {button(
          'pg',
          'detail-export-pg',
          !pgUrl,
          pgUrl ? `Export to ${pgUrl}` : 'Set the PostgreSQL connection in Settings first',
        )}
      </div>
      {!pgUrl && settings.data ? (
        <p className="muted">
          PostgreSQL export needs a connection: <Link to="/settings">set it in Settings</Link>.
        </p>
      ) : null}
      {busy === 'pg' ? <PgProgress progress={progress} /> : null}
      {error ? (
        <div className="field-error" role="alert" data-testid="detail-export-error">
          {error}
        </div>
      ) : null}
      {done.map(({ kind, result }) =>
        result.path ? (
          <FileResult
            key={kind}
            path={result.path}
            detail={`${LABEL[kind]}, ${count(result.rows)} rows`}
            testId={`detail-export-${kind}-file`}
          />
        ) : (
          <div key={kind} className="check-ok" role="status" data-testid={`detail-export-${kind}-file`}>
            ✓ {LABEL[kind]}: {count(result.rows)} rows exported{kind === 'pg' && pgUrl ? ` to ${pgUrl}` : ''}
            {(result.archive ?? []).map((a) =>
              a.note ? (
                <p key={a.runId} className="muted" data-testid="detail-export-pg-note">
                  {a.note}
                </p>
              ) : null,
            )}
          </div>
        ),
      )}
      <MissingSamples done={done} />
    </div>
  )
}
