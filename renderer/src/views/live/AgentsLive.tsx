// The load agents of a distributed run, live: each agent's state, clock offset to the store, its
// requests in the second just merged, its load thread's CPU and how long ago it last heartbeat.
// The agents events (joining, ready, waiting at the barrier) and every progress event carry them;
// once the run has ended, the stored distribution block says how each agent ended.
import type { AgentLive, Distribution } from '#engine/api/types.ts'
import { Card } from '../../ui/Primitives.tsx'
import { count, percent } from '../../lib/format.ts'

function offset(ms: number | null): string {
  if (ms === null) return '–'
  return `${ms >= 0 ? '+' : '−'}${Math.abs(ms).toFixed(1)} ms`
}

function heartbeat(ageMs: number | null): string {
  if (ageMs === null) return '–'
  return ageMs < 1000 ? `${Math.round(ageMs)} ms ago` : `${(ageMs / 1000).toFixed(1)} s ago`
}

type LiveAgents = { joined: readonly AgentLive[]; waiting: readonly number[] }

interface Row {
  index: number
  host: string
  state: string
  offsetMs: number | null
  requests: number
  cpu: number | null
  heartbeatAgeMs: number | null
}

function rowsOf(live: LiveAgents | null, stored: Distribution | null): Row[] {
  if (live && live.joined.length + live.waiting.length > 0)
    return [
      ...live.joined.map((a) => ({
        index: a.index,
        host: a.host,
        state: a.state,
        offsetMs: a.offsetMs,
        requests: a.requests,
        cpu: a.generatorCpu,
        heartbeatAgeMs: a.heartbeatAgeMs,
      })),
      // Not joined yet: started by the launcher (or by hand), not in the store so far.
      ...live.waiting.map((index) => ({
        index,
        host: '–',
        state: 'waiting',
        offsetMs: null,
        requests: 0,
        cpu: null,
        heartbeatAgeMs: null,
      })),
    ]
  return (stored?.perAgent ?? []).map((a) => ({
    index: a.index,
    host: a.host,
    state: a.state,
    offsetMs: a.offsetMs,
    requests: a.requests,
    cpu: a.generator.peakCpu,
    heartbeatAgeMs: null,
  }))
}

export function AgentsLive({
  live,
  stored,
  prefix,
}: {
  live: LiveAgents | null
  stored: Distribution | null
  prefix: string
}) {
  const rows = rowsOf(live, stored).sort((a, b) => a.index - b.index)
  if (!rows.length) return null
  const fromEvents = Boolean(live && live.joined.length + live.waiting.length > 0)
  return (
    <Card title={`Load agents (${rows.length})`} testId={`${prefix}-agents`}>
      <table className="table" data-testid={`${prefix}-agents-table`}>
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Host</th>
            <th scope="col">State</th>
            <th scope="col" className="num" title="The coordination store's clock minus the agent's">
              Clock offset
            </th>
            <th scope="col" className="num">
              {fromEvents ? 'req/s (last second)' : 'Requests'}
            </th>
            <th scope="col" className="num">
              {fromEvents ? 'CPU' : 'Peak CPU'}
            </th>
            <th scope="col" className="num">
              Last heartbeat
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => (
            <tr key={a.index} data-testid={`${prefix}-agent-${a.index}`} data-state={a.state}>
              <th scope="row">#{a.index}</th>
              <td>{a.host}</td>
              <td>
                <span className={`badge badge-${a.state}`}>{a.state}</span>
              </td>
              <td className="num">{offset(a.offsetMs)}</td>
              <td className="num" data-testid={`${prefix}-agent-${a.index}-requests`} data-value={a.requests}>
                {count(a.requests)}
              </td>
              <td className="num">{percent(a.cpu, 0)}</td>
              <td className="num">{heartbeat(a.heartbeatAgeMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  )
}
