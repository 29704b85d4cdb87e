// A target as a scenario: requests in order per connection (register → login → browse), values
// captured from one response (a JSON path or a header) and used in the next as ${name}. Steps can
// be added, removed and reordered; every field shows the schema's message for it.
import { Button } from '../../ui/Primitives.tsx'
import { ThinkEditor } from './ThinkEditor.tsx'
import type { Issues, TargetDraft } from './draft.ts'
import { part } from './draftPart.ts'
import { StepEditor } from './scenario/StepEditor.tsx'
import { emptyStep } from './scenarioDraft.ts'

type SetTarget = (change: (t: TargetDraft) => void) => void

export function ScenarioEditor({
  target,
  index,
  set,
  issues,
}: {
  target: TargetDraft
  index: number
  set: SetTarget
  issues: Issues
}) {
  const steps = part(
    target.steps ?? [],
    (change) => set((t) => void (t.steps && change(t.steps))),
    issues,
    `targets.${index}.steps`,
  )
  const stepsError = issues.get(`targets.${index}.steps`)
  return (
    <div className="scenario" data-testid={`target-${index}-scenario`}>
      <p className="muted">
        Each connection runs these requests in order against the URL's host, then starts over; steps marked
        once run first, once per connection (register, log in), and what they capture stays for every pass.
        Use <code>{'${name}'}</code> in a path, header or body for a captured value,{' '}
        <code>{'${iteration}'}</code> for a number unique to each pass, <code>{'${user}'}</code> for one
        unique to the connection's user. Think time pauses between a response and the next request; it never
        counts as latency.
      </p>
      <ThinkEditor
        think={target.think}
        onChange={(change) => set((t) => change(t.think))}
        field={`targets.${index}.think`}
        issues={issues}
        label="Think time after every step"
        testId={`target-${index}-think`}
      />
      {stepsError ? (
        <div className="field-error" role="alert" data-testid={`target-${index}-steps-error`}>
          {stepsError}
        </div>
      ) : null}
      {steps.value.map((_, j) => (
        <StepEditor key={j} steps={steps} j={j} id={`target-${index}-step-${j}`} />
      ))}
      <div className="actions">
        <Button
          onClick={() => set((t) => void t.steps?.push(emptyStep(`step-${(t.steps?.length ?? 0) + 1}`)))}
          data-testid={`target-${index}-add-step`}
        >
          Add step
        </Button>
        <Button
          variant="ghost"
          onClick={() => set((t) => void (t.steps = null))}
          data-testid={`target-${index}-scenario-off`}
        >
          Back to a single request
        </Button>
      </div>
    </div>
  )
}
