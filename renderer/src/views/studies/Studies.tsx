// Studies: sweeps, one run per value of a config setting (or per pair of values of two), listed
// together; a study opens its page.
import { useApi, useAsync } from '../../api/context.tsx'
import { Link } from '../../app/router.tsx'
import { dateTime } from '../../lib/format.ts'
import { Banner, EmptyState } from '../../ui/Primitives.tsx'
import { StudyPage } from './StudyPage.tsx'

function StudyList() {
  const api = useApi()
  const list = useAsync(() => api.studies.list(), [api])
  if (list.error) return <Banner kind="error">Could not load studies: {list.error}</Banner>
  if (!list.data) return <div className="loading">Loading studies…</div>
  if (list.data.length === 0)
    return (
      <EmptyState title="No studies yet" testId="studies-empty">
        <p>
          A study runs the same load once per value of one setting (connections 32, 64, 128, 256, or a stack's
          pool size) and shows where throughput stops rising while latency climbs. Start one from a template,
          or turn on “Sweep” in the wizard's Load step.
        </p>
        <p className="actions">
          <Link className="btn btn-primary" to="/new">
            Configure a study
          </Link>
        </p>
      </EmptyState>
    )
  return (
    <section data-testid="studies">
      <header className="view-head">
        <h1>Studies</h1>
        <div className="actions">
          <Link className="btn btn-secondary" to="/new">
            New study
          </Link>
        </div>
      </header>
      <table className="table" data-testid="studies-table">
        <thead>
          <tr>
            <th scope="col">Study</th>
            <th scope="col">Swept</th>
            <th scope="col">Values</th>
            <th scope="col">Runs</th>
            <th scope="col">Started</th>
          </tr>
        </thead>
        <tbody>
          {list.data.map((s) => (
            <tr key={s.studyId} data-testid={`studies-row-${s.studyId}`}>
              <td>
                <Link to={`/studies/${s.studyId}`} data-testid={`studies-open-${s.studyId}`}>
                  #{s.studyId} {s.name}
                </Link>
              </td>
              <td>
                {s.axes.map((a, i) => (
                  <span key={a.path}>
                    {i > 0 ? ' × ' : ''}
                    <code>{a.path}</code>
                  </span>
                ))}
              </td>
              <td>{s.axes.map((a) => a.labels.join(', ')).join(' × ')}</td>
              <td>
                {s.runIds.length} of {s.size}
              </td>
              <td>{dateTime(s.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

export default function Studies({ studyId }: { studyId: number | null }) {
  return studyId === null ? <StudyList /> : <StudyPage key={studyId} studyId={studyId} />
}
