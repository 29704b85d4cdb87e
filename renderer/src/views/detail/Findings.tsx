// What the run found beside its figures: what limited each target, from what was measured
// (engine/metrics/limiting.ts), and with load.warmup: auto the warm-up found in each segment, a
// segment that never settled flagged. The words are the CLI's and the report's.
import type { LimitedBy, TargetRoundSummary } from '#engine/api/types.ts'
import { LIMIT_NAMES, LIMIT_RULE } from '#engine/metrics/limiting.ts'
import { STEADY_RULE } from '#engine/metrics/steady.ts'
import { steadyText } from '#engine/metrics/steady-words.ts'
import { Card } from '../../ui/Primitives.tsx'

export function Findings({
  results,
  limitedBy,
}: {
  results: readonly TargetRoundSummary[]
  limitedBy: readonly LimitedBy[]
}) {
  const auto = results.filter((r) => r.steady)
  if (limitedBy.length === 0 && auto.length === 0) return null
  return (
    <Card title="What limited each target" testId="detail-limits">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Target</th>
            <th scope="col">Limited by</th>
            <th scope="col">From what was measured</th>
          </tr>
        </thead>
        <tbody>
          {limitedBy.map((l) => (
            <tr key={l.target} data-testid={`detail-limit-${l.target}`} data-kind={l.kind}>
              <td>{l.target}</td>
              <td>
                <span className={l.kind === 'none' ? 'muted' : 'study-badge'}>{LIMIT_NAMES[l.kind]}</span>
              </td>
              <td>
                {l.text}
                {l.found.slice(1).map((f) => (
                  <div className="muted" key={f.kind}>
                    also: {f.text}
                  </div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">{LIMIT_RULE}</p>
      {auto.length > 0 ? (
        <>
          <h4>Warm-up found in each segment</h4>
          <ul data-testid="detail-steady">
            {auto.map((r) => (
              <li
                key={`${r.target}-${r.round}`}
                data-testid={`detail-steady-${r.target}-${r.round}`}
                data-settled={String(r.steady!.settled)}
                className={r.steady!.settled ? undefined : 'unsettled'}
              >
                {r.target} round {r.round}: {steadyText(r.steady!)}
              </li>
            ))}
          </ul>
          <p className="muted">{STEADY_RULE}</p>
        </>
      ) : null}
    </Card>
  )
}
