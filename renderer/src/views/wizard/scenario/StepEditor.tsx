// One step of a scenario: its request (name, method, path, headers, body, the status it expects),
// whether it runs once per connection, its think time, and the values it captures.
import { Button } from '../../../ui/Primitives.tsx'
import { CheckAt, NumberAt, SelectAt, TextAt } from '../fields.tsx'
import { AddHeader, HeaderRows } from '../HeadersEditor.tsx'
import { showIssues } from '../issues.ts'
import { child, rowOf, rowsOf, type Part } from '../draftPart.ts'
import { duplicateCaptures, METHODS, type StepDraft } from '../scenarioDraft.ts'
import { ThinkEditor } from '../ThinkEditor.tsx'
import { BodyAt } from '../fields.tsx'
import { CaptureRow } from './CaptureRow.tsx'
import { StepHead } from './StepHead.tsx'

const METHOD_OPTIONS = METHODS.map((m) => ({ value: m, label: m }))
/** The step's fields that show their own message; the rest are listed under the step. */
const SHOWN = ['name', 'method', 'path', 'body', 'expectStatus', 'once', 'think', 'think.min', 'think.max']

/** Messages under this step that no field shows (e.g. a bad header name). */
function OtherIssues({ step }: { step: Part<StepDraft> }) {
  const prefix = step.path
  const shown = new Set(SHOWN.map((f) => `${prefix}.${f}`))
  const other = showIssues(
    step.issues,
    (k) =>
      (k === prefix || k.startsWith(`${prefix}.`)) && !shown.has(k) && !k.startsWith(`${prefix}.capture.`),
  )
  return (
    <>
      {other.map(([k, m]) => (
        <div className="field-error" role="alert" key={k}>
          {k.slice(prefix.length + 1) || 'step'} {m}
        </div>
      ))}
    </>
  )
}

function RequestFields({ step, id }: { step: Part<StepDraft>; id: string }) {
  return (
    <div className="grid-4">
      <TextAt part={step} k="name" label="Name" testId={`${id}-name`} />
      <SelectAt
        part={step}
        k="method"
        label="Method"
        options={METHOD_OPTIONS}
        error={undefined}
        testId={`${id}-method`}
      />
      <TextAt part={step} k="path" label="Path" placeholder="/ads?limit=20" testId={`${id}-path`} />
      <NumberAt
        part={step}
        k="expectStatus"
        label="Expect status"
        step={1}
        placeholder="the target's"
        testId={`${id}-expect`}
      />
    </div>
  )
}

function Captures({ step, id }: { step: Part<StepDraft>; id: string }) {
  const captures = child(step, 'captures')
  const dup = duplicateCaptures(step.value)
  return (
    <>
      {rowsOf(captures).map(({ row, i }) => (
        <CaptureRow
          key={i}
          capture={row}
          step={step}
          duplicate={dup.has(i)}
          onRemove={() => captures.set((list) => void list.splice(i, 1))}
          id={`${id}-capture-${i}`}
        />
      ))}
    </>
  )
}

export function StepEditor({ steps, j, id }: { steps: Part<StepDraft[]>; j: number; id: string }) {
  const step = rowOf(steps, j)
  if (!step) return null
  const s = step.value
  const headers = child(step, 'headers')
  const hasBody = s.method !== 'GET' && s.method !== 'HEAD'
  return (
    <section className="step-card" data-testid={id}>
      <StepHead steps={steps} j={j} id={id} />
      <RequestFields step={step} id={id} />
      <div className="grid-2">
        <CheckAt
          part={step}
          k="once"
          label="Once per connection, before the steps that repeat"
          testId={`${id}-once`}
          hint={step.at('once')}
        />
        <ThinkEditor
          think={s.think}
          onChange={(change) => step.set((x) => change(x.think))}
          field={`${step.path}.think`}
          issues={step.issues}
          label="Think time after this step"
          testId={`${id}-think`}
        />
      </div>
      <HeaderRows headers={headers} id={id} valuePlaceholder="Bearer ${token}" />
      {hasBody ? <BodyAt part={step} k="body" rows={2} testId={`${id}-body`} /> : null}
      <Captures step={step} id={id} />
      <div className="actions">
        <AddHeader headers={headers} id={id} />
        <Button
          variant="ghost"
          onClick={() => step.set((x) => void x.captures.push({ name: '', kind: 'json', expr: '' }))}
          data-testid={`${id}-add-capture`}
        >
          Capture a value
        </Button>
      </div>
      <OtherIssues step={step} />
    </section>
  )
}
