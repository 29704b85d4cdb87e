// The Load step's "Load generators": one process on this machine, or N load agents (one merged,
// exact run; engine/agents/README.md) started as local processes, Docker containers, a Swarm job or
// a Kubernetes Indexed Job, or started by hand ("other": the run waits at its barrier for them,
// and the step shows the line each one runs). A radio group, so arrow keys move between the choices.
import { NumberField } from '../../ui/Field.tsx'
import { agentLines, GENERATOR_CHOICES, LINES_SHOWN, needsStoreUrl } from './agentsDraft.ts'
import type { Draft, Issues, Patch } from './draft.ts'

const NOTES: Record<Draft['agents']['on'], string> = {
  machine: 'One load process on the machine the engine runs on (about 60 000 requests/s on one core).',
  local:
    'N agent processes on this machine, each pinned to a core where there are enough; they need no database. The run is one merged, exact run.',
  docker: 'N agent containers on the Docker host the engine reaches.',
  swarm: 'A replicated job of N tasks on the Docker swarm the engine reaches.',
  kubernetes: 'An Indexed Job of N pods (and a Secret for the store URL) through your kubeconfig.',
  other:
    'You start the N agents yourself, on any machines that reach the coordination store. Start the run first: it starts no agent, waits at its barrier (10 minutes by default) until all N have joined, then runs as one merged run.',
}

/** What each hand-started agent runs, one line per index, and where the run's key comes from. */
function AgentLines({ count }: { count: Draft['agents']['count'] }) {
  const lines = agentLines(count)
  return (
    <div data-testid="load-agents-how">
      <p className="field-hint">
        On each machine, once the run has started, run its line with the run's key in place of{' '}
        <code>&lt;run key&gt;</code> (the engine logs it as the run starts:{' '}
        <code>… join with CANNONADE_RUN=…</code>; <code>cannonade run CONFIG --agents N --on external</code>{' '}
        prints the whole lines); the file holds the store's <code>postgres://</code> URL:
      </p>
      <pre className="yaml" data-testid="load-agents-line">
        {lines.join('\n')}
        {count !== undefined && count > LINES_SHOWN
          ? `\n… and so on up to CANNONADE_AGENT_INDEX=${count - 1}`
          : ''}
      </pre>
    </div>
  )
}

export function GeneratorsEditor({ draft, patch, issues }: { draft: Draft; patch: Patch; issues: Issues }) {
  const a = draft.agents
  const onError = issues.get('agents.on')
  return (
    <fieldset className="profile generators" data-testid="load-generators">
      <legend>Load generators</legend>
      <div className="radio-row" role="radiogroup" aria-label="Load generators">
        {GENERATOR_CHOICES.map((c) => (
          <label key={c.value} className="inline-label">
            <input
              type="radio"
              name="load-generators"
              value={c.value}
              checked={a.on === c.value}
              onChange={() => patch((d) => void (d.agents.on = c.value))}
              data-testid={`load-generators-${c.value}`}
            />
            {c.label}
          </label>
        ))}
      </div>
      <p className="muted" data-testid="load-generators-note">
        {NOTES[a.on]}
      </p>
      {a.on !== 'machine' ? (
        <div className="grid-3">
          <NumberField
            label="Load agents"
            value={a.count}
            min={1}
            step={1}
            onChange={(v) => patch((d) => void (d.agents.count = v))}
            error={issues.get('agents.count') ?? issues.get('agents')}
            hint="Connections and rate are split so the agents' shares add up to the profile at every second."
            testId="load-agents-count"
          />
        </div>
      ) : null}
      {a.on === 'other' ? <AgentLines count={a.count} /> : null}
      {needsStoreUrl(a.on) ? (
        <p className="field-hint" data-testid="load-agents-store">
          These agents coordinate through PostgreSQL: the engine needs <code>CANNONADE_STORE_URL</code> set in
          its environment (the environment of <code>cannonade serve</code> or the desktop app), and every
          agent must reach that database.
        </p>
      ) : null}
      {onError ? (
        <div className="field-error" role="alert" data-testid="load-generators-error">
          {onError}
        </div>
      ) : null}
    </fieldset>
  )
}
