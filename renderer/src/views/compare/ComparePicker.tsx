// Compare's first screen: pick finished runs (or say there are none yet and how to make some).
import { useState } from 'react'
import { useApi, useAsync } from '../../api/context.tsx'
import { Link, navigate } from '../../app/router.tsx'
import { Button, Card, EmptyState } from '../../ui/Primitives.tsx'
import { dateTime } from '../../lib/format.ts'

function NothingYet() {
  return (
    <EmptyState title="Nothing to compare yet" testId="compare-empty">
      <p>
        Compare needs finished runs: two runs of different servers, or one run with two targets (say node-http
        and java-jetty).
      </p>
      <p className="actions">
        <Link className="btn btn-primary" to="/new">
          Configure a run
        </Link>
        <Link className="btn btn-secondary" to="/stacks">
          Launch target stacks
        </Link>
      </p>
    </EmptyState>
  )
}

export function ComparePicker() {
  const api = useApi()
  const list = useAsync(() => api.runs.list({ limit: 30, status: 'done' }), [api])
  const [picked, setPicked] = useState<number[]>([])
  const items = list.data?.items ?? []
  if (!list.loading && items.length === 0) return <NothingYet />
  const toggle = (id: number) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id]))
  return (
    <Card title="Choose runs to compare" testId="compare-picker">
      <p className="muted">Pick two or more runs, or one run with several targets.</p>
      <ul className="pick-list">
        {items.map((r) => (
          <li key={r.runId}>
            <label>
              <input
                type="checkbox"
                checked={picked.includes(r.runId)}
                onChange={() => toggle(r.runId)}
                data-testid={`compare-pick-${r.runId}`}
              />
              #{r.runId} {r.name}{' '}
              <span className="muted">
                ({r.targets.join(', ')}, {dateTime(r.startedAt)})
              </span>
            </label>
          </li>
        ))}
      </ul>
      <Button
        variant="primary"
        disabled={picked.length === 0}
        onClick={() => navigate(`/compare?runs=${picked.join(',')}`)}
        data-testid="compare-go"
      >
        Compare
      </Button>
    </Card>
  )
}
