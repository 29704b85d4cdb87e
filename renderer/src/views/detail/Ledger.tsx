// The run's raw ledger: how many requests are stored and roughly how much disk they take
// (~56 bytes each: 50 000 req/s is ~10 GB an hour), and a way to drop them while keeping the
// summaries, series and histograms (Settings has a retention in days that does the same). Until
// the engine has written a run's requests as `samples` rows (just after its window) it says so,
// asking again each second; requests its load agents kept are named with where they are.
import { useEffect } from 'react'
import type { LedgerInfo } from '#engine/api/types.ts'
import { useAction, useApi, useAsync } from '../../api/context.tsx'
import { Button, Card } from '../../ui/Primitives.tsx'

/** What is not (yet) a `samples` row: still being written, or kept by the run's agents. */
function LedgerNotes({ l }: { l: LedgerInfo }) {
  return (
    <>
      {l.pending > 0 ? (
        <p className="muted" data-testid="detail-ledger-pending">
          Writing {l.pending.toLocaleString()} requests as <code>samples</code> rows… Every page here reads
          them already; a query of your own sees them once written.
        </p>
      ) : null}
      {l.elsewhere ? (
        <div data-testid="detail-ledger-elsewhere">
          <p>
            {l.elsewhere.requests.toLocaleString()} requests are not in this database: {l.elsewhere.advice}.
          </p>
          <ul>
            {l.elsewhere.where.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  )
}

export function Ledger({ runId, running }: { runId: number; running: boolean }) {
  const api = useApi()
  const ledger = useAsync(() => api.runs.ledger(runId), [api, runId, running])
  const prune = useAction(async () => {
    await api.runs.prune(runId)
    ledger.reload()
  })
  const l = ledger.data
  const writing = (l?.pending ?? 0) > 0
  const { reload } = ledger
  useEffect(() => {
    if (!writing) return
    const timer = setInterval(reload, 1000)
    return () => clearInterval(timer)
  }, [writing, reload])
  return (
    <Card title="Raw samples" testId="detail-ledger">
      {!l ? (
        <p className="muted">{ledger.error ?? 'Counting…'}</p>
      ) : l.prunedAt ? (
        <p data-testid="detail-ledger-pruned">
          Dropped {new Date(l.prunedAt).toLocaleString()}; summaries, series and histograms are kept.
        </p>
      ) : (
        <>
          <p data-testid="detail-ledger-size">
            {l.rows.toLocaleString()} requests, ≈ {(l.bytes / 1048576).toFixed(1)} MB on disk.
          </p>
          <LedgerNotes l={l} />
          <Button
            disabled={running || l.rows === 0}
            busy={prune.busy}
            onClick={() => {
              if (window.confirm('Drop this run’s raw samples? Summaries, series and histograms stay.'))
                void prune.run()
            }}
            data-testid="detail-ledger-prune"
          >
            Drop raw samples
          </Button>
          {prune.error ? <span className="field-error">{prune.error}</span> : null}
        </>
      )}
    </Card>
  )
}
