// The wizard's steps in order, each a button; a step left behind with problems shows their count.
import type { StepId } from './draft.ts'

export const STEPS: { id: StepId; label: string }[] = [
  { id: 'targets', label: 'Targets' },
  { id: 'load', label: 'Load' },
  { id: 'monitoring', label: 'Monitoring' },
  { id: 'review', label: 'Review' },
]

export function Stepper({
  step,
  errorsByStep,
  onStep,
}: {
  step: StepId
  errorsByStep: Record<StepId, number>
  onStep: (step: StepId) => void
}) {
  const index = STEPS.findIndex((s) => s.id === step)
  return (
    <ol className="stepper" aria-label="Steps">
      {STEPS.map((s, i) => (
        <li key={s.id}>
          <button
            type="button"
            aria-current={s.id === step ? 'step' : undefined}
            onClick={() => onStep(s.id)}
            data-testid={`wizard-step-${s.id}`}
          >
            <span className="step-num">{i + 1}</span> {s.label}
            {errorsByStep[s.id] > 0 && i < index ? (
              <span className="step-errors" aria-label={`${errorsByStep[s.id]} problems`}>
                {errorsByStep[s.id]}
              </span>
            ) : null}
          </button>
        </li>
      ))}
    </ol>
  )
}
