// Individual requests: find one by its correlation id (as the target logged it), or list the
// slowest. Each row shows where the time went when the target sent Server-Timing.
import { useState } from 'react'
import type { SampleRow } from '../../../../engine/api/types.ts'
import { useAction, useApi } from '../../api/context.tsx'
import { Button, Card, NumHeads } from '../../ui/Common.tsx'
import { count, ms } from '../../lib/format.ts'
import { kindLabel } from '../../../../engine/metrics/units.ts'

export function SampleExplorer({
  runId,
  prefix,
  targets,
}: {
  runId: number
  prefix: string
  targets: string[]
}) {
  const api = useApi()
  const [id, setId] = useState('')
  const [target, setTarget] = useState('')
  const [rows, setRows] = useState<{ rows: SampleRow[]; total: number; what: string } | null>(null)
  const search = useAction(
    async (query: { correlationId?: string; order?: 'slowest'; errorsOnly?: boolean }, what: string) => {
      const q = { ...query, target: target || undefined, limit: 50 }
      const result = await api.runs.samples(runId, q)
      setRows({ ...result, what })
    },
  )
  return (
    <Card title="Requests" testId="samples">
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault()
          const value = id.trim()
          // A bare sequence number means "in this run": ids are <prefix>-<10-digit sequence>.
          const full = /^\d{1,10}$/.test(value) ? `${prefix}-${value.padStart(10, '0')}` : value
          if (value) void search.run({ correlationId: full }, `correlation id ${full}`)
        }}
      >
        <label>
          Correlation id
          <input
            value={id}
            placeholder={`${prefix}-0000000042 or 42`}
            onChange={(e) => setId(e.target.value)}
            data-testid="samples-id"
          />
        </label>
        <Button type="submit" busy={search.busy} data-testid="samples-find">
          Find
        </Button>
        <label>
          Target
          <select value={target} onChange={(e) => setTarget(e.target.value)} data-testid="samples-target">
            <option value="">all</option>
            {targets.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <Button
          onClick={() => void search.run({ order: 'slowest' }, 'slowest requests')}
          data-testid="samples-slowest"
        >
          Slowest
        </Button>
        <Button
          onClick={() => void search.run({ errorsOnly: true }, 'failed requests')}
          data-testid="samples-errors"
        >
          Errors
        </Button>
      </form>
      {search.error ? <div className="field-error">{search.error}</div> : null}
      {rows ? (
        <>
          <p className="muted" data-testid="samples-summary">
            {rows.total === 0
              ? `No ${rows.what} found.`
              : `${rows.what}: ${count(rows.rows.length)} of ${count(rows.total)}`}
          </p>
          {rows.rows.length > 0 ? (
            <table className="table" data-testid="samples-table">
              <thead>
                <tr>
                  <th scope="col">Correlation id</th>
                  <th scope="col">Target</th>
                  <th scope="col">Phase</th>
                  <NumHeads names={['Sent at', 'Latency', 'Server app', 'Server db', 'Status']} />
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {rows.rows.map((r) => (
                  <tr key={r.correlationId}>
                    <td>
                      <code>{r.correlationId}</code>
                    </td>
                    <td>
                      {r.target}
                      {r.round > 1 ? ` · ${r.round}` : ''}
                    </td>
                    <td>{r.phase}</td>
                    <td className="num">{(r.startUs / 1e6).toFixed(3)} s</td>
                    <td className="num">
                      {r.latencyUs === null ? (
                        <span className="muted">
                          {r.error === 'inflight' ? 'in flight at end' : 'no response'}
                        </span>
                      ) : (
                        ms(r.latencyUs)
                      )}
                      {r.correctedUs !== null && r.correctedUs !== r.latencyUs ? (
                        <span className="muted"> ({ms(r.correctedUs)} corrected)</span>
                      ) : null}
                    </td>
                    <td className="num">{ms(r.serverAppUs)}</td>
                    <td className="num">{ms(r.serverDbUs)}</td>
                    <td className="num">{r.status || '–'}</td>
                    <td>{r.error === 'none' || r.error === 'inflight' ? '' : kindLabel(r.error)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </>
      ) : null}
    </Card>
  )
}
