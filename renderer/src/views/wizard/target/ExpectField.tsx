// Which answers count as answered for this target (its `expect`): the default 200–399, or codes,
// ranges and classes typed as "200-299, 304". A scenario's step with its own status overrides it.
// The schema's message about any entry shows beside the field.
import type { TargetDraft } from '../draft.ts'
import { TextAt } from '../fields.tsx'
import { showIssues } from '../issues.ts'
import type { Part } from '../draftPart.ts'

export function ExpectField({ target, id }: { target: Part<TargetDraft>; id: string }) {
  const at = `${target.path}.expect`
  const [first] = showIssues(target.issues, (k) => k === at || k.startsWith(`${at}.`))
  const scenario = target.value.steps !== null
  return (
    <TextAt
      part={target}
      k="expect"
      label="Statuses that count as answered"
      placeholder="200-399"
      hint={
        <>
          Codes, ranges or classes, comma-separated (<code>200-299, 304</code>); empty: 200–399. Any other
          status is an error, “unexpected status”{scenario ? ', unless a step says its own' : ''}.
        </>
      }
      error={first?.[1]}
      testId={`${id}-expect`}
    />
  )
}
