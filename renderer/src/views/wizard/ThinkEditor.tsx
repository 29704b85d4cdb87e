// Think time: a pause between a response and the connection's next request (none, fixed, or random
// within bounds, seeded by load.seed). It is never part of a latency, and a rate (open loop) sets
// the pace itself, so the schema refuses think time with a rate.
import { NumberField, SelectField } from '../../ui/Field.tsx'
import type { Issues } from './draft.ts'
import type { ThinkDraft } from './scenarioDraft.ts'

export function ThinkEditor({
  think,
  onChange,
  field,
  issues,
  testId,
  label = 'Think time',
}: {
  think: ThinkDraft
  onChange: (change: (t: ThinkDraft) => void) => void
  /** The config field it edits (`targets.0.think`), for the schema's messages. */
  field: string
  issues: Issues
  testId: string
  label?: string
}) {
  const error = issues.get(field)
  return (
    <div className="grid-3" data-testid={testId}>
      <SelectField
        label={label}
        value={think.kind}
        options={[
          { value: 'none', label: 'none' },
          { value: 'fixed', label: 'fixed (ms)' },
          { value: 'range', label: 'random within (ms)' },
        ]}
        onChange={(v) => onChange((t) => void (t.kind = v))}
        error={think.kind === 'none' ? error : undefined}
        testId={`${testId}-kind`}
      />
      {think.kind === 'fixed' ? (
        <NumberField
          label="Pause (ms)"
          value={think.ms}
          min={0}
          onChange={(v) => onChange((t) => void (t.ms = v))}
          error={error}
          testId={`${testId}-ms`}
        />
      ) : null}
      {think.kind === 'range' ? (
        <>
          <NumberField
            label="From (ms)"
            value={think.min}
            min={0}
            onChange={(v) => onChange((t) => void (t.min = v))}
            error={issues.get(`${field}.min`) ?? error}
            testId={`${testId}-min`}
          />
          <NumberField
            label="To (ms)"
            value={think.max}
            min={0}
            onChange={(v) => onChange((t) => void (t.max = v))}
            error={issues.get(`${field}.max`)}
            testId={`${testId}-max`}
          />
        </>
      ) : null}
    </div>
  )
}
