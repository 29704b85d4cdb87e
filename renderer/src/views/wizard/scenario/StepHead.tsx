// A scenario step's title with its order buttons (up, down) and its removal.
import { Button } from '../../../ui/Primitives.tsx'
import type { StepDraft } from '../scenarioDraft.ts'
import type { Part } from '../draftPart.ts'

export function StepHead({ steps, j, id }: { steps: Part<StepDraft[]>; j: number; id: string }) {
  const count = steps.value.length
  const move = (to: number) =>
    steps.set((list) => {
      if (to < 0 || to >= list.length) return
      const [s] = list.splice(j, 1)
      if (s) list.splice(to, 0, s)
    })
  return (
    <header className="step-card-head">
      <h4>
        Step {j + 1}: {steps.value[j]?.name || '(unnamed)'}
      </h4>
      <span className="actions">
        <Button
          variant="ghost"
          disabled={j === 0}
          onClick={() => move(j - 1)}
          aria-label={`Move step ${j + 1} up`}
          data-testid={`${id}-up`}
        >
          ↑
        </Button>
        <Button
          variant="ghost"
          disabled={j === count - 1}
          onClick={() => move(j + 1)}
          aria-label={`Move step ${j + 1} down`}
          data-testid={`${id}-down`}
        >
          ↓
        </Button>
        <Button
          variant="ghost"
          disabled={count === 1}
          onClick={() => steps.set((list) => void list.splice(j, 1))}
          aria-label={`Remove step ${j + 1}`}
          data-testid={`${id}-remove`}
        >
          ✕
        </Button>
      </span>
    </header>
  )
}
