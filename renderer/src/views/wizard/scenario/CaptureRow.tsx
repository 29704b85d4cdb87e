// A value captured from a step's response (a JSON path or a header) for the next steps' ${name}.
// The config keeps captures as a record by name, so a capture's message is keyed by its name.
import { RemoveRow, SelectAt, TextAt } from '../fields.tsx'
import type { Part } from '../draftPart.ts'
import type { CaptureDraft } from '../scenarioDraft.ts'

export function CaptureRow({
  capture,
  step,
  duplicate,
  onRemove,
  id,
}: {
  capture: Part<CaptureDraft>
  /** The step's part: captures' messages are at `capture.<name>` below it. */
  step: Part<unknown>
  duplicate: boolean
  onRemove: () => void
  id: string
}) {
  const c = capture.value
  const key = `capture.${c.name}`
  const error =
    (duplicate ? `"${c.name}" is captured twice in this step` : undefined) ??
    step.at(key) ??
    step.at(`${key}.${c.kind}`)
  return (
    <div className="capture-row" data-testid={id}>
      <TextAt
        part={capture}
        k="name"
        label="Capture as"
        placeholder="token"
        error={error}
        testId={`${id}-name`}
      />
      <SelectAt
        part={capture}
        k="kind"
        label="From"
        options={[
          { value: 'json', label: 'JSON path' },
          { value: 'header', label: 'header' },
        ]}
        error={undefined}
        testId={`${id}-kind`}
      />
      <TextAt
        part={capture}
        k="expr"
        label={c.kind === 'json' ? 'Path in the body' : 'Header name'}
        placeholder={c.kind === 'json' ? 'data.token' : 'location'}
        error={undefined}
        testId={`${id}-expr`}
      />
      <RemoveRow label={`Remove capture ${c.name}`} onRemove={onRemove} />
    </div>
  )
}
