// The stack a template's target runs on, with its settings, and a way to forget it.
import { Button } from '../../../ui/Primitives.tsx'
import type { TargetDraft } from '../draft.ts'
import type { Part } from '../draftPart.ts'

export function StackNote({ target, id }: { target: Part<TargetDraft>; id: string }) {
  const stack = target.value.stack
  if (!stack) return null
  const env = Object.entries(stack.env)
  return (
    <p className="muted" data-testid={`${id}-stack`}>
      Runs on the <code>{stack.name}</code> stack
      {env.length ? ` with ${env.map(([k, v]) => `${k}=${v}`).join(', ')}` : ''}.{' '}
      <Button
        variant="ghost"
        onClick={() => target.set((t) => void (t.stack = null))}
        data-testid={`${id}-stack-remove`}
      >
        Forget the stack
      </Button>
    </p>
  )
}
