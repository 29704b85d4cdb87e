// The load shape: one editor per profile kind. Values of every kind are kept in the draft, so
// switching kinds back and forth loses nothing.
import type { Draft, Issues, ProfileKind } from './draft.ts'
import type { Patch } from './draft.ts'
import { Button } from '../../ui/Common.tsx'
import { CheckboxField, NumberField, optionsOf, SelectField, TextField } from '../../ui/Field.tsx'

// One label per kind of engine/config/schema.ts: a new kind is a compile error here until it has a
// label (and in draft.ts and fromConfig.ts until the draft carries its fields).
const KINDS = optionsOf<ProfileKind>({
  constant: 'Constant (big bang)',
  ramp: 'Ramp (linear or stepped)',
  burst: 'Bursts (periodic)',
  phases: 'Phases (warmup, load, peak…)',
  stages: 'Stages (interpolated)',
})

export function ProfileEditor({ draft, patch, issues }: { draft: Draft; patch: Patch; issues: Issues }) {
  const p = draft.load.profile
  const at = (f: string) => issues.get(`load.profile.${f}`)
  return (
    <fieldset className="profile" data-testid="profile-editor">
      <legend>Profile</legend>
      <SelectField
        label="Shape"
        value={p.kind}
        options={KINDS}
        onChange={(v) => patch((d) => void (d.load.profile.kind = v))}
        error={issues.get('load.profile')}
        testId="profile-kind"
      />
      {p.kind === 'constant' ? <p className="muted">All connections for the whole window.</p> : null}
      {p.kind !== 'phases' ? (
        <NumberField
          label="Warm-up (seconds before the profile)"
          value={draft.load.warmupSeconds}
          min={0}
          onChange={(v) => patch((d) => void (d.load.warmupSeconds = v))}
          error={issues.get('load.warmupSeconds')}
          hint="At the run's connections, recorded and shown, but left out of the summary, the thresholds and comparisons."
          testId="load-warmup"
        />
      ) : null}
      {p.kind === 'ramp' ? (
        <>
          <div className="grid-3">
            <NumberField
              label="From (connections)"
              value={p.ramp.from}
              min={0}
              step={1}
              onChange={(v) => patch((d) => void (d.load.profile.ramp.from = v))}
              error={at('from')}
              testId="ramp-from"
            />
            <NumberField
              label="To (connections)"
              value={p.ramp.to}
              min={1}
              step={1}
              placeholder={String(draft.load.connections ?? '')}
              onChange={(v) => patch((d) => void (d.load.profile.ramp.to = v))}
              error={at('to')}
              testId="ramp-to"
            />
            <NumberField
              label="Hold after (s)"
              value={p.ramp.holdSeconds}
              min={0}
              onChange={(v) => patch((d) => void (d.load.profile.ramp.holdSeconds = v))}
              error={at('holdSeconds')}
              testId="ramp-hold"
            />
          </div>
          <CheckboxField
            label="Stepped ramp (add connections in steps, with pauses)"
            checked={p.ramp.stepped}
            onChange={(v) => patch((d) => void (d.load.profile.ramp.stepped = v))}
            testId="ramp-stepped"
          />
          {p.ramp.stepped ? (
            <div className="grid-3">
              <NumberField
                label="Step size (connections)"
                value={p.ramp.stepSize}
                min={1}
                step={1}
                onChange={(v) => patch((d) => void (d.load.profile.ramp.stepSize = v))}
                error={at('stepSize')}
                testId="ramp-step-size"
              />
              <NumberField
                label="Step length (s)"
                value={p.ramp.stepSeconds}
                min={0}
                onChange={(v) => patch((d) => void (d.load.profile.ramp.stepSeconds = v))}
                error={at('stepSeconds')}
                testId="ramp-step-seconds"
              />
              <NumberField
                label="Pause between steps (s)"
                value={p.ramp.pauseSeconds}
                min={0}
                onChange={(v) => patch((d) => void (d.load.profile.ramp.pauseSeconds = v))}
                error={at('pauseSeconds')}
                testId="ramp-pause"
              />
            </div>
          ) : (
            <NumberField
              label="Ramp length (s)"
              value={p.ramp.rampSeconds}
              min={0}
              onChange={(v) => patch((d) => void (d.load.profile.ramp.rampSeconds = v))}
              error={at('rampSeconds')}
              testId="ramp-seconds"
            />
          )}
        </>
      ) : null}
      {p.kind === 'burst' ? (
        <div className="grid-3">
          <NumberField
            label="Burst (s)"
            value={p.burst.burstSeconds}
            min={0}
            onChange={(v) => patch((d) => void (d.load.profile.burst.burstSeconds = v))}
            error={at('burstSeconds')}
            testId="burst-seconds"
          />
          <NumberField
            label="Idle between (s)"
            value={p.burst.idleSeconds}
            min={0}
            onChange={(v) => patch((d) => void (d.load.profile.burst.idleSeconds = v))}
            error={at('idleSeconds')}
            testId="burst-idle"
          />
          <NumberField
            label="Connections in a burst"
            value={p.burst.connections}
            min={1}
            step={1}
            placeholder={String(draft.load.connections ?? '')}
            onChange={(v) => patch((d) => void (d.load.profile.burst.connections = v))}
            error={at('connections')}
            testId="burst-connections"
          />
        </div>
      ) : null}
      {p.kind === 'phases' ? (
        <div className="rows">
          <p className="muted">
            Each phase runs a share of the connections for a time or a request count; statistics are kept per
            phase. A warm-up phase is recorded and shown, but left out of the summary, the thresholds and
            comparisons.
          </p>
          {p.phases.map((ph, i) => (
            <div className="grid-4 row" key={i} data-testid={`phase-${i}`}>
              <TextField
                label="Phase"
                value={ph.name}
                onChange={(v) =>
                  patch((d) => void (d.load.profile.phases[i] && (d.load.profile.phases[i].name = v)))
                }
                error={at(`phases.${i}.name`)}
                testId={`phase-${i}-name`}
              />
              <NumberField
                label="Share (0–1)"
                value={ph.share}
                min={0}
                step={0.05}
                onChange={(v) =>
                  patch((d) => void (d.load.profile.phases[i] && (d.load.profile.phases[i].share = v)))
                }
                error={at(`phases.${i}.share`)}
                testId={`phase-${i}-share`}
              />
              <SelectField
                label="Length by"
                value={ph.by}
                options={[
                  { value: 'duration', label: 'seconds' },
                  { value: 'requests', label: 'requests' },
                ]}
                onChange={(v) =>
                  patch((d) => void (d.load.profile.phases[i] && (d.load.profile.phases[i].by = v)))
                }
                testId={`phase-${i}-by`}
              />
              <div className="url-row">
                {ph.by === 'duration' ? (
                  <NumberField
                    className="grow"
                    label="Seconds"
                    value={ph.duration}
                    min={0}
                    onChange={(v) =>
                      patch((d) => void (d.load.profile.phases[i] && (d.load.profile.phases[i].duration = v)))
                    }
                    error={at(`phases.${i}.duration`)}
                    testId={`phase-${i}-duration`}
                  />
                ) : (
                  <NumberField
                    className="grow"
                    label="Requests"
                    value={ph.requests}
                    min={1}
                    step={1}
                    onChange={(v) =>
                      patch((d) => void (d.load.profile.phases[i] && (d.load.profile.phases[i].requests = v)))
                    }
                    error={at(`phases.${i}.requests`) ?? at(`phases.${i}.duration`)}
                    testId={`phase-${i}-requests`}
                  />
                )}
                <CheckboxField
                  label="Warm-up"
                  checked={ph.warmup}
                  onChange={(v) =>
                    patch((d) => void (d.load.profile.phases[i] && (d.load.profile.phases[i].warmup = v)))
                  }
                  testId={`phase-${i}-warmup`}
                />
                <Button
                  variant="ghost"
                  disabled={p.phases.length <= 1}
                  onClick={() => patch((d) => void d.load.profile.phases.splice(i, 1))}
                  aria-label={`Remove phase ${ph.name}`}
                >
                  ✕
                </Button>
              </div>
            </div>
          ))}
          <Button
            variant="ghost"
            onClick={() =>
              patch(
                (d) =>
                  void d.load.profile.phases.push({
                    name: `phase-${d.load.profile.phases.length + 1}`,
                    share: 1,
                    by: 'duration',
                    duration: 10,
                    requests: undefined,
                    warmup: false,
                  }),
              )
            }
            data-testid="phase-add"
          >
            Add phase
          </Button>
        </div>
      ) : null}
      {p.kind === 'stages' ? (
        <div className="rows">
          <p className="muted">
            Connections move linearly from one stage's count to the next over the stage's length.
          </p>
          {p.stages.map((s, i) => (
            <div className="grid-3 row" key={i} data-testid={`stage-${i}`}>
              <NumberField
                label="Seconds"
                value={s.duration}
                min={0}
                onChange={(v) =>
                  patch((d) => void (d.load.profile.stages[i] && (d.load.profile.stages[i].duration = v)))
                }
                error={at(`stages.${i}.duration`)}
                testId={`stage-${i}-duration`}
              />
              <NumberField
                label="Connections at end"
                value={s.connections}
                min={0}
                step={1}
                onChange={(v) =>
                  patch((d) => void (d.load.profile.stages[i] && (d.load.profile.stages[i].connections = v)))
                }
                error={at(`stages.${i}.connections`)}
                testId={`stage-${i}-connections`}
              />
              <Button
                variant="ghost"
                disabled={p.stages.length <= 1}
                onClick={() => patch((d) => void d.load.profile.stages.splice(i, 1))}
                aria-label={`Remove stage ${i + 1}`}
              >
                Remove
              </Button>
            </div>
          ))}
          <Button
            variant="ghost"
            onClick={() =>
              patch(
                (d) =>
                  void d.load.profile.stages.push({ duration: 10, connections: d.load.connections ?? 1 }),
              )
            }
            data-testid="stage-add"
          >
            Add stage
          </Button>
        </div>
      ) : null}
      {issues.get('load.profile.phases') ? (
        <div className="field-error">{issues.get('load.profile.phases')}</div>
      ) : null}
      {issues.get('load.profile.stages') ? (
        <div className="field-error">{issues.get('load.profile.stages')}</div>
      ) : null}
    </fieldset>
  )
}
