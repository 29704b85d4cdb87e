// Step 2: how hard and for how long: connections, a time window or a request count, the profile
// (with the schedule preview), who generates it (this machine or load agents), a sweep over one
// value, and how targets and rounds are ordered.
import { optionsOf } from '../../ui/Field.tsx'
import type { Draft, Issues, Patch } from './draft.ts'
import { CheckAt, GroupError, NumberAt, SelectAt } from './fields.tsx'
import { GeneratorsEditor } from './GeneratorsEditor.tsx'
import { child, draftPart, type Part } from './draftPart.ts'
import { ProfileEditor } from './ProfileEditor.tsx'
import { SchedulePreview } from './SchedulePreview.tsx'
import { SweepEditor } from './SweepEditor.tsx'

const ORDERS = optionsOf<Draft['schedule']>({
  randomized: 'randomized (each round in a random order)',
  interleaved: 'interleaved (A, B, A, B rounds)',
  sequential: 'sequential (A then B)',
})

const ROUNDS_MODES = optionsOf<Draft['roundsMode']>({
  fixed: 'a fixed number',
  precise: 'until the answer is clear',
})

/** Rounds until precise: the least and most rounds, the goal, the time budget, disturbed rounds. */
function PreciseFields({ root }: { root: Part<Draft> }) {
  const precise = child(root, 'precise', 'rounds')
  return (
    <div className="grid-3" data-testid="load-precise">
      <NumberAt part={precise} k="min" label="At least (rounds)" min={3} step={1} testId="load-precise-min" />
      <NumberAt part={precise} k="max" label="At most (rounds)" min={3} step={1} testId="load-precise-max" />
      <NumberAt
        part={precise}
        k="precision"
        label="Goal: interval within ± %"
        min={0}
        hint="Stops once every headline ratio (p50, p99, throughput) is this precise, or decided against ±5 %."
        testId="load-precise-precision"
      />
      <NumberAt
        part={precise}
        k="budgetMinutes"
        label="Budget (minutes)"
        min={0}
        hint="No round starts that would end past it."
        testId="load-precise-budget"
      />
      <CheckAt
        part={precise}
        k="skipDisturbed"
        label="Repeat disturbed rounds"
        hint="A round the machine disturbed is kept and shown, left out of the figures, and run again."
        testId="load-precise-skip"
      />
    </div>
  )
}

/** Connections, and how long: a time window or a request count (unless the profile sets its own). */
function WindowFields({ load }: { load: Part<Draft['load']> }) {
  const l = load.value
  const ownWindow = l.profile.kind === 'phases' || l.profile.kind === 'stages'
  return (
    <>
      <div className="grid-3">
        <NumberAt
          part={load}
          k="connections"
          label="Connections"
          min={1}
          step={1}
          hint="Concurrent kept-alive connections (the parallelism)."
          testId="load-connections"
        />
        {ownWindow ? (
          <p className="muted">The {l.profile.kind} profile sets its own length.</p>
        ) : (
          <>
            <SelectAt
              part={load}
              k="mode"
              label="Run for"
              options={[
                { value: 'duration', label: 'a time window' },
                { value: 'requests', label: 'a request count' },
              ]}
              testId="load-mode"
            />
            {l.mode === 'duration' ? (
              <NumberAt part={load} k="duration" label="Duration (s)" min={1} testId="load-duration" />
            ) : (
              <NumberAt
                part={load}
                k="requests"
                label="Requests"
                min={1}
                step={1}
                error={load.at('requests') ?? load.at('duration')}
                testId="load-requests"
              />
            )}
          </>
        )}
      </div>
      {ownWindow ? <GroupError message={load.at('duration') ?? load.at('requests')} /> : null}
    </>
  )
}

/** Pipelining, timeout, keep-alive, an open-loop rate, and the order of targets and rounds. */
function AdvancedOptions({ root }: { root: Part<Draft> }) {
  const load = child(root, 'load')
  return (
    <details className="advanced">
      <summary data-testid="load-advanced">Connection options, rate, rounds</summary>
      <div className="grid-3">
        <NumberAt part={load} k="pipelining" label="Pipelining" min={1} step={1} testId="load-pipelining" />
        <NumberAt part={load} k="timeoutMs" label="Timeout (ms)" min={1} step={1} testId="load-timeout" />
        <CheckAt part={load} k="keepAlive" label="Keep connections alive" testId="load-keepalive" />
      </div>
      <div className="grid-3">
        <CheckAt
          part={load}
          k="rateLimited"
          label="Fixed request rate (open loop)"
          testId="load-rate-enabled"
          hint="Latency is then measured from each request's intended send time (no coordinated omission)."
        />
        {load.value.rateLimited ? (
          <NumberAt part={load} k="rate" label="Requests/s per target" min={0} testId="load-rate" />
        ) : null}
      </div>
      <div className="grid-3">
        {root.value.targets.length > 1 ? (
          <SelectAt part={root} k="schedule" label="Target order" options={ORDERS} testId="load-schedule" />
        ) : (
          // Interleaving orders targets: one target's rounds simply follow each other.
          <p className="muted" data-testid="load-schedule-one">
            One target: its rounds run one after another.
          </p>
        )}
        <SelectAt
          part={root}
          k="roundsMode"
          label="Rounds"
          options={ROUNDS_MODES}
          error={root.value.roundsMode === 'precise' ? root.at('rounds') : undefined}
          testId="load-rounds-mode"
        />
        {root.value.roundsMode === 'fixed' ? (
          <NumberAt part={root} k="rounds" label="Rounds" min={1} step={1} testId="load-rounds" />
        ) : null}
        <NumberAt
          part={root}
          k="cooldownSeconds"
          label="Cool-down between (s)"
          min={0}
          testId="load-cooldown"
        />
      </div>
      {root.value.roundsMode === 'precise' ? <PreciseFields root={root} /> : null}
    </details>
  )
}

export function LoadStep({ draft, patch, issues }: { draft: Draft; patch: Patch; issues: Issues }) {
  const root = draftPart(draft, patch, issues)
  return (
    <div data-testid="step-load" className="load-step">
      <div className="load-form">
        <WindowFields load={child(root, 'load')} />
        <ProfileEditor draft={draft} patch={patch} issues={issues} />
        <GeneratorsEditor draft={draft} patch={patch} issues={issues} />
        <SweepEditor draft={draft} patch={patch} issues={issues} />
        <AdvancedOptions root={root} />
      </div>
      <SchedulePreview draft={draft} />
    </div>
  )
}
