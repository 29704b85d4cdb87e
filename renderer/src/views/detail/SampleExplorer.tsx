// Individual requests: find one by its correlation id (as the target logged it), or list the
// slowest. Each row shows where the time went when the target sent Server-Timing.
import { useState } from 'react'
import type { SampleRow } from '#engine/api/types.ts'
import { useAction, useApi } from '../../api/context.tsx'
import { Button, Card, NumHeads } from '../../ui/Primitives.tsx'
import { count, ms } from '../../lib/format.ts'
import { kindLabel } from '#engine/metrics/units.ts'

type Query = { correlationId?: string; order?: 'slowest'; errorsOnly?: boolean }
type Found = { rows: SampleRow[]; total: number; what: string }

function SearchForm({
  prefix,
  targets,
  target,
  onTarget,
  busy,
  onSearch,
}: {
  prefix: string
  targets: readonly string[]
  target: string
  onTarget: (t: string) => void
  busy: boolean
  onSearch: (q: Query, what: string) => void
}) {
  const [id, setId] = useState('')
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault()
        const value = id.trim()
        // A bare sequence number means "in this run": ids are <prefix>-<10-digit sequence>.
        const full = /^\d{1,10}$/.test(value) ? `${prefix}-${value.padStart(10, '0')}` : value
        if (value) onSearch({ correlationId: full }, `correlation id ${full}`)
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
      <Button type="submit" busy={busy} data-testid="samples-find">
        Find
      </Button>
      <label>
        Target
        <select value={target} onChange={(e) => onTarget(e.target.value)} data-testid="samples-target">
          <option value="">all</option>
          {targets.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <Button
        onClick={() => onSearch({ order: 'slowest' }, 'slowest requests')}
        data-testid="samples-slowest"
      >
        Slowest
      </Button>
      <Button onClick={() => onSearch({ errorsOnly: true }, 'failed requests')} data-testid="samples-errors">
        Errors
      </Button>
    </form>
  )
}

function Sample({ r }: { r: SampleRow }) {
  return (
    <tr>
      <td>
        <code>{r.correlationId}</code>
      </td>
      <td>
        {r.target}
        {r.round > 1 ? ` · round ${r.round}` : ''}
      </td>
      <td>{r.phase}</td>
      <td className="num">{(r.startUs / 1e6).toFixed(3)} s</td>
      <td className="num">
        {r.latencyUs === null ? (
          <span className="muted">{r.error === 'inflight' ? 'in flight at end' : 'no response'}</span>
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
  )
}

function Results({ found }: { found: Found }) {
  return (
    <>
      <p className="muted" data-testid="samples-summary">
        {found.total === 0
          ? `No ${found.what} found.`
          : `${found.what}: ${count(found.rows.length)} of ${count(found.total)}`}
      </p>
      {found.rows.length > 0 ? (
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
            {found.rows.map((r) => (
              <Sample key={r.correlationId} r={r} />
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  )
}

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
  const [target, setTarget] = useState('')
  const [found, setFound] = useState<Found | null>(null)
  const search = useAction(async (query: Query, what: string) => {
    const result = await api.runs.samples(runId, { ...query, target: target || undefined, limit: 50 })
    setFound({ ...result, what })
  })
  return (
    <Card title="Requests" testId="samples">
      <SearchForm
        prefix={prefix}
        targets={targets}
        target={target}
        onTarget={setTarget}
        busy={search.busy}
        onSearch={(q, what) => void search.run(q, what)}
      />
      {search.error ? <div className="field-error">{search.error}</div> : null}
      {found ? <Results found={found} /> : null}
    </Card>
  )
}
