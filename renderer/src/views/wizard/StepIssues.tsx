// What a refused Next shows and where it puts focus: the step's messages no field shows, listed at
// the step's top by name (renderer/src/views/wizard/issues.ts tells which), and the first problem.
import { createPortal } from 'react-dom'
import { stepOf, type Issues, type StepId } from './draft.ts'
import { fieldName, unshown, type TrackedIssues } from './issues.ts'

/**
 * Moves focus to a step's first problem: an invalid field or a question waiting for an answer (in
 * page order), else the list of messages no field shows, else any message; a closed <details>
 * holding it is opened first.
 */
export function focusFirstProblem(body: HTMLElement | null): void {
  if (!body) return
  const el =
    body.querySelector<HTMLElement>('[aria-invalid="true"], [data-unanswered]') ??
    body.querySelector<HTMLElement>('[data-step-issues]') ??
    body.querySelector<HTMLElement>('.field-error')
  if (!el) return
  for (let d = el.closest('details'); d; d = d.parentElement?.closest('details') ?? null) d.open = true
  if (el.tabIndex < 0 && !el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1')
  el.focus()
  el.scrollIntoView?.({ block: 'center' })
}

/**
 * The step's messages no field showed, by name, at the step's top. Rendered after the step's
 * fields (they have asked `tracked` for theirs by then) and placed at the top through a portal.
 */
export function StepIssues({
  step,
  issues,
  tracked,
  slot,
}: {
  step: StepId
  issues: Issues
  tracked: TrackedIssues
  slot: HTMLElement
}) {
  const hidden = unshown(
    [...issues.keys()].filter((f) => stepOf(f) === step),
    tracked,
  )
  if (hidden.length === 0) return null
  return createPortal(
    <div
      className="banner banner-error step-issues"
      role="alert"
      tabIndex={-1}
      data-step-issues
      data-testid="step-issues"
    >
      <p>Fix {hidden.length === 1 ? 'this' : 'these'} before going on:</p>
      <ul>
        {hidden.map((f) => (
          <li key={f} data-testid={`step-issue-${f}`}>
            <b>{fieldName(f)}</b> (<code>{f || '(config)'}</code>) {issues.get(f)}
          </li>
        ))}
      </ul>
    </div>,
    slot,
  )
}
