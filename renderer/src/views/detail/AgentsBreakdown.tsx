// Run detail of a run made by load agents: its throughput per agent, per target and round, from
// the run's distribution block (each agent's own segment summaries). The agents' requests add up to
// the run's exactly (the merge sums their counters); the last row shows the merged run's figures
// next to the sum, so a lost agent's missing share is visible. A target keeps its colour.
import type { Distribution, TargetRoundSummary } from '#engine/api/types.ts'
import { Bars } from '../../ui/charts/Bars.tsx'
import type { SeriesDef } from '../../lib/chart-types.ts'
import { Card } from '../../ui/Primitives.tsx'
import { colour, count, ms, rate } from '../../lib/format.ts'

type Agent = Distribution['perAgent'][number]
type AgentResult = Agent['results'][number]
interface Segment {
  key: string
  label: string
  colour: string
  run: TargetRoundSummary
}

const resultOf = (a: Agent, key: string): AgentResult | null =>
  a.results.find((x) => `${x.target}#${x.round}` === key) ?? null

function Head({ segments }: { segments: readonly Segment[] }) {
  return (
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
  )
}

function AgentRow({ a, segments }: { a: Agent; segments: readonly Segment[] }) {
  return (
    <tr data-testid={`detail-agent-${a.index}`} data-state={a.state}>
      <th scope="row">
        #{a.index} <span className="muted">{a.host}</span>
      </th>
      <td>
        <span className={`badge badge-${a.state}`}>{a.state}</span>
      </td>
      {segments.map((s) => {
        const x = resultOf(a, s.key)
        const id = `detail-agent-${a.index}-${s.key}`
        return [
          <td key={`${s.key}-r`} className="num" data-testid={`${id}-requests`} data-value={x?.requests ?? 0}>
            {count(x?.requests ?? 0)}
          </td>,
          <td
            key={`${s.key}-t`}
            className="num"
            data-testid={`${id}-throughput`}
            data-value={x?.throughput ?? 0}
            title={x ? `p50 ${ms(x.p50)} · p99 ${ms(x.p99)}` : undefined}
          >
            {rate(x?.throughput ?? 0)}
          </td>,
        ]
      })}
    </tr>
  )
}

/** A row of two figures per segment: the agents' sum, or the merged run's. */
function TotalRow({
  label,
  testId,
  segments,
  value,
}: {
  label: string
  testId: string
  segments: readonly Segment[]
  value: (s: Segment) => { requests: number; throughput: number }
}) {
  return (
    <tr className="sub-row" data-testid={testId}>
      <th scope="row">{label}</th>
      <td />
      {segments.map((s) => [
        <td key={`${s.key}-r`} className="num" data-testid={`${testId}-${s.key}-requests`}>
          {count(value(s).requests)}
        </td>,
        <td key={`${s.key}-t`} className="num">
          {rate(value(s).throughput)}
        </td>,
      ])}
    </tr>
  )
}

export function AgentsBreakdown({
  distribution: d,
  results,
}: {
  distribution: Distribution
  results: readonly TargetRoundSummary[]
}) {
  const targets = [...new Set(results.map((r) => r.target))]
  const multiRound = results.some((r) => r.round > 1)
  const segments: Segment[] = results.map((r) => ({
    key: `${r.target}#${r.round}`,
    label: multiRound ? `${r.target} · round ${r.round}` : r.target,
    colour: colour(targets.indexOf(r.target)),
    run: r,
  }))
  const agents = [...d.perAgent].sort((a, b) => a.index - b.index)
  const sum = (s: Segment) => ({
    requests: agents.reduce((n, a) => n + (resultOf(a, s.key)?.requests ?? 0), 0),
    throughput: agents.reduce((n, a) => n + (resultOf(a, s.key)?.throughput ?? 0), 0),
  })
  // One bar per agent, one stacked part per target and round in the target's colour.
  const rows = agents.map((a) => ({
    agent: `#${a.index} ${a.host}`,
    ...Object.fromEntries(segments.map((s) => [s.key, resultOf(a, s.key)?.throughput ?? 0])),
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
        <Head segments={segments} />
        <tbody>
          {agents.map((a) => (
            <AgentRow key={a.index} a={a} segments={segments} />
          ))}
          <TotalRow label="sum of agents" testId="detail-agents-sum" segments={segments} value={sum} />
          <TotalRow
            label="the run (merged)"
            testId="detail-agents-run"
            segments={segments}
            value={(s) => s.run}
          />
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
