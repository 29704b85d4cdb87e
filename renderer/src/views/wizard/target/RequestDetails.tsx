// A plain target's request beyond its method and URL: headers, and a body typed in or generated
// before the run (a size in bytes, JSON or text).
import type { TargetDraft } from '../draft.ts'
import { CheckboxField } from '../../../ui/Field.tsx'
import { BodyAt, GroupError, NumberAt, SelectAt } from '../fields.tsx'
import { AddHeader, HeaderRows } from '../HeadersEditor.tsx'
import { child, part, type Part } from '../draftPart.ts'

type Generated = NonNullable<TargetDraft['generated']>

function GeneratedBody({
  target,
  generated,
  id,
}: {
  target: Part<TargetDraft>
  generated: Generated
  id: string
}) {
  const body = part(
    generated,
    (change) =>
      target.set((t) => {
        if (t.generated) change(t.generated)
      }),
    target.issues,
    `${target.path}.body`,
  )
  return (
    <div className="grid-3">
      <NumberAt
        part={body}
        k="size"
        label="Body size (bytes)"
        min={0}
        step={1}
        error={body.at('size') ?? body.at()}
        testId={`${id}-body-size`}
      />
      <SelectAt
        part={body}
        k="kind"
        label="Body kind"
        options={[
          { value: 'json', label: 'JSON' },
          { value: 'text', label: 'plain text' },
        ]}
        error={undefined}
        testId={`${id}-body-kind`}
      />
    </div>
  )
}

function Body({ target, id }: { target: Part<TargetDraft>; id: string }) {
  const generated = target.value.generated
  return (
    <>
      <CheckboxField
        label="Generate the body: a size in bytes, JSON or text (built once before the run)"
        checked={generated !== null}
        onChange={(on) => target.set((t) => void (t.generated = on ? { size: 1024, kind: 'json' } : null))}
        testId={`${id}-generated`}
      />
      {generated ? (
        <GeneratedBody target={target} generated={generated} id={id} />
      ) : (
        <BodyAt part={target} k="body" rows={4} testId={`${id}-body`} />
      )}
    </>
  )
}

export function RequestDetails({ target, id }: { target: Part<TargetDraft>; id: string }) {
  const headers = child(target, 'headers')
  const hasBody = target.value.method !== 'GET' && target.value.method !== 'HEAD'
  return (
    <details className="advanced">
      <summary>Headers{hasBody ? ' and body' : ''}</summary>
      <HeaderRows headers={headers} id={id} />
      <AddHeader headers={headers} id={id} />
      <GroupError message={headers.at()} />
      {hasBody ? <Body target={target} id={id} /> : null}
    </details>
  )
}
