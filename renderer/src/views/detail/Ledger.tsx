// The run's raw ledger: how many requests are stored and roughly how much disk they take
// (~56 bytes each: 50 000 req/s is ~10 GB an hour), and a way to drop them while keeping the
// summaries, series and histograms (Settings has a retention in days that does the same).
import { useAction, useApi, useAsync } from '../../api/context.tsx'
import { Button, Card } from '../../ui/Common.tsx'

export function Ledger({ runId, running }: { runId: number; running: boolean }) {
  const api = useApi()
  const ledger = useAsync(() => api.runs.ledger(runId), [api, runId, running])
  const prune = useAction(async () => {
    await api.runs.prune(runId)
    ledger.reload()
  })
  const l = ledger.data
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
