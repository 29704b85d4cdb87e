// Step 2: how hard and for how long: connections, a time window or a request count, the profile
// (with the schedule preview), who generates it (this machine or load agents), a sweep over one
// value, and how targets and rounds are ordered.
import { CheckboxField, NumberField, optionsOf, SelectField } from '../../ui/Field.tsx'
import type { Draft, Issues } from './draft.ts'
import type { Patch } from './draft.ts'
import { ProfileEditor } from './ProfileEditor.tsx'
import { SchedulePreview } from './SchedulePreview.tsx'
import { SweepEditor } from './SweepEditor.tsx'
import { GeneratorsEditor } from './GeneratorsEditor.tsx'

export function LoadStep({ draft, patch, issues }: { draft: Draft; patch: Patch; issues: Issues }) {
  const l = draft.load
  const ownWindow = l.profile.kind === 'phases' || l.profile.kind === 'stages'
  const at = (f: string) => issues.get(`load.${f}`)
  return (
    <div data-testid="step-load" className="load-step">
      <div className="load-form">
        <div className="grid-3">
          <NumberField
            label="Connections"
            value={l.connections}
            min={1}
            step={1}
            onChange={(v) => patch((d) => void (d.load.connections = v))}
            error={at('connections')}
            hint="Concurrent kept-alive connections (the parallelism)."
            testId="load-connections"
          />
          {ownWindow ? (
            <p className="muted">The {l.profile.kind} profile sets its own length.</p>
          ) : (
            <>
              <SelectField
                label="Run for"
                value={l.mode}
                options={[
                  { value: 'duration', label: 'a time window' },
                  { value: 'requests', label: 'a request count' },
                ]}
                onChange={(v) => patch((d) => void (d.load.mode = v))}
                testId="load-mode"
              />
              {l.mode === 'duration' ? (
                <NumberField
                  label="Duration (s)"
                  value={l.duration}
                  min={1}
                  onChange={(v) => patch((d) => void (d.load.duration = v))}
                  error={at('duration')}
                  testId="load-duration"
                />
              ) : (
                <NumberField
                  label="Requests"
                  value={l.requests}
                  min={1}
                  step={1}
                  onChange={(v) => patch((d) => void (d.load.requests = v))}
                  error={at('requests') ?? at('duration')}
                  testId="load-requests"
                />
              )}
            </>
          )}
        </div>
        {ownWindow && (at('duration') || at('requests')) ? (
          <div className="field-error">{at('duration') ?? at('requests')}</div>
        ) : null}
        <ProfileEditor draft={draft} patch={patch} issues={issues} />
        <GeneratorsEditor draft={draft} patch={patch} issues={issues} />
        <SweepEditor draft={draft} patch={patch} issues={issues} />
        <details className="advanced">
          <summary data-testid="load-advanced">Connection options, rate, rounds</summary>
          <div className="grid-3">
            <NumberField
              label="Pipelining"
              value={l.pipelining}
              min={1}
              step={1}
              onChange={(v) => patch((d) => void (d.load.pipelining = v))}
              error={at('pipelining')}
              testId="load-pipelining"
            />
            <NumberField
              label="Timeout (ms)"
              value={l.timeoutMs}
              min={1}
              step={1}
              onChange={(v) => patch((d) => void (d.load.timeoutMs = v))}
              error={at('timeoutMs')}
              testId="load-timeout"
            />
            <CheckboxField
              label="Keep connections alive"
              checked={l.keepAlive}
              onChange={(v) => patch((d) => void (d.load.keepAlive = v))}
              testId="load-keepalive"
            />
          </div>
          <div className="grid-3">
            <CheckboxField
              label="Fixed request rate (open loop)"
              checked={l.rateLimited}
              onChange={(v) => patch((d) => void (d.load.rateLimited = v))}
              testId="load-rate-enabled"
              hint="Latency is then measured from each request's intended send time (no coordinated omission)."
            />
            {l.rateLimited ? (
              <NumberField
                label="Requests/s per target"
                value={l.rate}
                min={0}
                onChange={(v) => patch((d) => void (d.load.rate = v))}
                error={at('rate')}
                testId="load-rate"
              />
            ) : null}
          </div>
          <div className="grid-3">
            <SelectField
              label="Target order"
              value={draft.schedule}
              options={optionsOf<Draft['schedule']>({
                sequential: 'sequential (A then B)',
                interleaved: 'interleaved (A, B, A, B rounds)',
              })}
              onChange={(v) => patch((d) => void (d.schedule = v))}
              error={issues.get('schedule')}
              testId="load-schedule"
            />
            <NumberField
              label="Rounds"
              value={draft.rounds}
              min={1}
              step={1}
              onChange={(v) => patch((d) => void (d.rounds = v))}
              error={issues.get('rounds')}
              testId="load-rounds"
            />
            <NumberField
              label="Cool-down between (s)"
              value={draft.cooldownSeconds}
              min={0}
              onChange={(v) => patch((d) => void (d.cooldownSeconds = v))}
              error={issues.get('cooldownSeconds')}
              testId="load-cooldown"
            />
          </div>
        </details>
      </div>
      <SchedulePreview draft={draft} />
    </div>
  )
}
