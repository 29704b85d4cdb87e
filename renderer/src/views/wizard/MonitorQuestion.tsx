// The question under a target's URL when its monitor watches a bundled stack the URL no longer
// goes to (./monitorFollow.ts): follow the target, keep the monitor, or remove it. Until it is
// answered Next stays on the Targets step (the box carries data-unanswered).
import { useId } from 'react'
import { Button } from '../../ui/Primitives.tsx'
import type { TargetDraft } from './draft.ts'
import {
  answerMonitorQuestion,
  monitorQuestion,
  type MonitorAnswer,
  type StackPlace,
} from './monitorFollow.ts'

export function MonitorQuestionBox({
  target,
  index,
  stacks,
  set,
}: {
  target: TargetDraft
  index: number
  stacks: readonly StackPlace[]
  set: (change: (t: TargetDraft) => void) => void
}) {
  const textId = useId()
  const q = monitorQuestion(target, stacks)
  if (!q) return null
  const answer = (a: MonitorAnswer) => set((t) => answerMonitorQuestion(t, q, a, stacks))
  const id = `target-${index}-monitor-question`
  const where =
    q.urlHost === '127.0.0.1' || q.urlHost === 'localhost' ? `port ${q.urlPort}` : `${q.urlHost}:${q.urlPort}`
  return (
    <div
      className="banner banner-warning monitor-question"
      role="group"
      aria-labelledby={textId}
      tabIndex={-1}
      data-unanswered
      data-testid={id}
    >
      <p id={textId}>
        The monitor watches the <b>{q.stack}</b> stack (port {q.stackPort}), but this URL goes to {where}: its
        CPU and memory would be another server's. What should it watch?
      </p>
      <div className="actions">
        {q.follow ? (
          <Button variant="primary" onClick={() => answer('follow')} data-testid={`${id}-follow`}>
            {q.follow.kind === 'stack'
              ? `Follow the target: watch the ${q.follow.stack} stack`
              : `Follow the target: watch the process on port ${q.follow.port}`}
          </Button>
        ) : null}
        <Button onClick={() => answer('keep')} data-testid={`${id}-keep`}>
          Keep watching {q.stack}
        </Button>
        <Button variant="ghost" onClick={() => answer('remove')} data-testid={`${id}-remove`}>
          Remove the monitor
        </Button>
      </div>
    </div>
  )
}
