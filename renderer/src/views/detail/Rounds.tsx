// A run's rounds: how many ran and why they stopped, the order each round ran in (and a randomized
// schedule's seed), how busy the machine was as it started, and what shared the machine with each
// round (engine/metrics/noise.ts): the same words and cells as `cannonade runs show`.
import type { MachineLoad, RoundsOutcome, TargetRoundSummary } from '#engine/api/types.ts'
import { NOISE_COLUMNS, noiseCells } from '#engine/metrics/noise.ts'
import { orderWords } from '#engine/metrics/rounds-words.ts'
import { Banner, Card } from '../../ui/Primitives.tsx'

function NoiseTable({ results }: { results: readonly TargetRoundSummary[] }) {
  const rows = [...results].sort((a, b) => a.round - b.round || (a.segment ?? 0) - (b.segment ?? 0))
  return (
    <details className="advanced" data-testid="detail-noise">
      <summary>What shared the machine, per round</summary>
      <table className="table">
        <thead>
          <tr>
            <th>round</th>
            <th>target</th>
            {NOISE_COLUMNS.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={`${r.round}:${r.target}`}
              data-testid="detail-noise-row"
              data-disturbed={r.noise?.disturbed ? 'true' : undefined}
              title={r.noise?.reasons.join('; ') || undefined}
            >
              <td className="num">{r.round}</td>
              <td>{r.target}</td>
              {noiseCells(r.noise).map((cell, i) => (
                <td key={NOISE_COLUMNS[i]} className="num">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  )
}

export function Rounds({
  rounds,
  machine,
  results,
  targets,
}: {
  rounds: RoundsOutcome
  machine: MachineLoad | null
  results: readonly TargetRoundSummary[]
  targets: number
}) {
  const ordered = targets > 1 && rounds.orders.length > 1
  return (
    <Card title="Rounds">
      {machine?.words ? (
        <Banner kind="warning" testId="detail-machine">
          {machine.words}
        </Banner>
      ) : null}
      <p data-testid="detail-rounds-stop">{rounds.stop}.</p>
      {ordered ? (
        <p className="muted" data-testid="detail-rounds-order">
          {orderWords(rounds)[0]!.toUpperCase()}
          {orderWords(rounds).slice(1)}:{' '}
          {rounds.orders.map((o) => `round ${o.round}: ${o.targets.join(' → ')}`).join(' · ')}
        </p>
      ) : null}
      {rounds.noise ? (
        <Banner kind="warning" testId="detail-rounds-noise">
          {rounds.noise}.
        </Banner>
      ) : null}
      {results.some((r) => r.noise) ? <NoiseTable results={results} /> : null}
    </Card>
  )
}
