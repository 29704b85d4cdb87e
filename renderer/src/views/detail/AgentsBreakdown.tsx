// Run detail of a run made by load agents: its throughput per agent, per target and round, from
// the run's distribution block (each agent's own segment summaries). The agents' requests add up to
// the run's exactly (the merge sums their counters); the last row shows the merged run's figures
// next to the sum, so a lost agent's missing share is visible. A target keeps its colour.
import type { Distribution, TargetRoundSummary } from '../../../../engine/api/types.ts'
import { Bars } from '../../ui/charts/Bars.tsx'
import type { SeriesDef } from '../../ui/charts/types.ts'
import { Card } from '../../ui/Common.tsx'
import { colour, count, ms, rate } from '../../lib/format.ts'

export function AgentsBreakdown({
  distribution: d,
  results,
}: {
  distribution: Distribution
  results: readonly TargetRoundSummary[]
}) {
  const targets = [...new Set(results.map((r) => r.target))]
  const multiRound = results.some((r) => r.round > 1)
  const segments = results.map((r) => ({
    key: `${r.target}#${r.round}`,
    label: multiRound ? `${r.target} · round ${r.round}` : r.target,
    target: r.target,
    round: r.round,
    colour: colour(targets.indexOf(r.target)),
    run: r,
  }))
  const agents = [...d.perAgent].sort((a, b) => a.index - b.index)
  const of = (i: number, key: string) =>
    agents[i]?.results.find((x) => `${x.target}#${x.round}` === key) ?? null
  const sum = (key: string, f: 'requests' | 'throughput') =>
    agents.reduce((a, _x, i) => a + (of(i, key)?.[f] ?? 0), 0)
  // One bar per agent, one stacked part per target and round in the target's colour.
  const rows = agents.map((a, i) => ({
    agent: `#${a.index} ${a.host}`,
    ...Object.fromEntries(segments.map((s) => [s.key, of(i, s.key)?.throughput ?? 0])),
  }))
  const series: SeriesDef[] = segments.map((s) => ({ key: s.key, label: s.label, colour: s.colour }))
  return (
    <Card
      title={`Throughput per load agent (${d.agents} agents, ${d.on})`}
      testId="detail-agents"
      className="agents-breakdown"
    >
      <p className="muted">
        An agent's throughput is over its own window (its first to its last second), the run's over the
        longest of them; the agents' requests add up to the run's exactly. Start spread {d.skewMs.toFixed(1)}{' '}
        ms, largest clock offset {d.maxOffsetMs.toFixed(1)} ms.
        {d.warnings.length ? ` ${d.warnings.join(' ')}` : ''}
      </p>
      <table className="table" data-testid="detail-agents-table">
        <thead>
          <tr>
            <th scope="col" rowSpan={2}>
              Agent
            </th>
            <th scope="col" rowSpan={2}>
              State
            </th>
            {segments.map((s) => (
              <th key={s.key} scope="colgroup" className="num" colSpan={2}>
                <span className="swatch" style={{ background: s.colour }} aria-hidden="true" /> {s.label}
              </th>
            ))}
          </tr>
          <tr>
            {segments.map((s) => [
              <th key={`${s.key}-r`} scope="col" className="num">
                Requests
              </th>,
              <th key={`${s.key}-t`} scope="col" className="num">
                Throughput
              </th>,
            ])}
          </tr>
        </thead>
        <tbody>
          {agents.map((a, i) => (
            <tr key={a.index} data-testid={`detail-agent-${a.index}`} data-state={a.state}>
              <th scope="row">
                #{a.index} <span className="muted">{a.host}</span>
              </th>
              <td>
                <span className={`badge badge-${a.state}`}>{a.state}</span>
              </td>
              {segments.map((s) => {
                const x = of(i, s.key)
                return [
                  <td
                    key={`${s.key}-r`}
                    className="num"
                    data-testid={`detail-agent-${a.index}-${s.key}-requests`}
                    data-value={x?.requests ?? 0}
                  >
                    {count(x?.requests ?? 0)}
                  </td>,
                  <td
                    key={`${s.key}-t`}
                    className="num"
                    data-testid={`detail-agent-${a.index}-${s.key}-throughput`}
                    data-value={x?.throughput ?? 0}
                    title={x ? `p50 ${ms(x.p50)} · p99 ${ms(x.p99)}` : undefined}
                  >
                    {rate(x?.throughput ?? 0)}
                  </td>,
                ]
              })}
            </tr>
          ))}
          <tr className="sub-row" data-testid="detail-agents-sum">
            <th scope="row">sum of agents</th>
            <td />
            {segments.map((s) => [
              <td key={`${s.key}-r`} className="num" data-testid={`detail-agents-sum-${s.key}-requests`}>
                {count(sum(s.key, 'requests'))}
              </td>,
              <td key={`${s.key}-t`} className="num">
                {rate(sum(s.key, 'throughput'))}
              </td>,
            ])}
          </tr>
          <tr className="sub-row" data-testid="detail-agents-run">
            <th scope="row">the run (merged)</th>
            <td />
            {segments.map((s) => [
              <td key={`${s.key}-r`} className="num" data-testid={`detail-agents-run-${s.key}-requests`}>
                {count(s.run.requests)}
              </td>,
              <td key={`${s.key}-t`} className="num">
                {rate(s.run.throughput)}
              </td>,
            ])}
          </tr>
        </tbody>
      </table>
      <Bars
        title="Throughput per agent (req/s)"
        rows={rows}
        category="agent"
        series={series}
        format={(v) => String(Math.round(v))}
        testId="detail-agents-chart"
      />
    </Card>
  )
}
