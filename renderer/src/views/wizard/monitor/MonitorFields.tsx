// The fields of a target's monitor, for any kind: drawn from the kind's form
// (engine/config/monitor-form.ts: its rows of fields, their labels, placeholders and hints, and the
// choices that show them), each bound to its key in the draft, with the schema's message at its
// path beside it. A new monitor kind is a form there, not a component here.
import { Fragment } from 'react'
import { useApiEnv } from '../../../api/context.tsx'
import { CheckboxField, NumberField, SelectField, TextField } from '../../../ui/Field.tsx'
import {
  MONITOR_FORMS,
  pathOf,
  shows,
  wordsFor,
  type FieldForm,
  type MonitorForm,
} from '#engine/config/monitor-form.ts'
import type { MonitorDraft } from '../draft.ts'
import { SPEC_KINDS, type FormValue, type MonitorKind } from '../monitorDraft.ts'
import { child, type Part } from '../draftPart.ts'

/** The kind picker's options: none, then every kind of the config in its forms' order. */
export const MONITOR_KIND_OPTIONS: { value: MonitorKind; label: string }[] = [
  { value: 'none', label: 'Not monitored' },
  ...SPEC_KINDS.map((value) => ({ value, label: MONITOR_FORMS[value].label })),
]

type Values = Part<Record<string, FormValue>>

/** One field of the form, bound to its key; its message is the first of its paths that has one. */
function FormField({ field, values, id }: { field: FieldForm; values: Values; id: string }) {
  const { mode } = useApiEnv()
  const value = values.value[field.key]
  const write = (v: FormValue) => values.set((x) => void (x[field.key] = v))
  const path = pathOf(field)
  const paths = field.messages ?? (path === null ? [] : [path])
  const error = paths.map((p) => values.at(p)).find((m) => m !== undefined)
  const common = {
    label: field.label,
    testId: `${id}-${field.testId}`,
    hint: field.hint === undefined ? undefined : wordsFor(field.hint, mode),
  }
  switch (field.control) {
    case 'check':
      return <CheckboxField {...common} checked={value === true} onChange={write} />
    case 'number':
      return (
        <NumberField
          {...common}
          value={typeof value === 'number' ? value : undefined}
          onChange={write}
          min={field.min}
          step={field.step}
          error={error}
        />
      )
    case 'select':
      return (
        <SelectField
          {...common}
          value={String(value)}
          options={field.options}
          onChange={write}
          error={error}
        />
      )
    case 'text':
      return (
        <TextField
          {...common}
          value={String(value ?? '')}
          onChange={write}
          placeholder={field.placeholder}
          error={error}
        />
      )
  }
}

export interface MonitorFieldsProps {
  /** The target's edited monitor; its messages are keyed under the config's monitor path. */
  monitor: Part<MonitorDraft>
  /** The data-testid prefix of the monitor's fields (`monitor-0`). */
  id: string
}

/** The edited monitor's kind's fields, row by row, as its choices show them; nothing for none. */
export function MonitorFields({ monitor, id }: MonitorFieldsProps) {
  const { mode } = useApiEnv()
  const kind = monitor.value.kind
  if (kind === 'none') return null
  const form: MonitorForm = MONITOR_FORMS[kind]
  // The draft keeps a kind's values apart; the config has them on the monitor itself.
  const values = child(monitor, kind, '') as unknown as Values
  return (
    <>
      {form.rows.map((row, r) => {
        const shown = row.filter((f) => shows(f, values.value))
        const fields = shown.map((f) => <FormField key={f.key} field={f} values={values} id={id} />)
        if (shown.length === 0) return null
        // A row of checkboxes stands apart, as the form's other checkboxes do; any other is a grid.
        return shown.every((f) => f.control === 'check') ? (
          <Fragment key={r}>{fields}</Fragment>
        ) : (
          <div key={r} className="grid-3">
            {fields}
          </div>
        )
      })}
      {form.note === undefined ? null : <p className="muted">{wordsFor(form.note, mode)}</p>}
    </>
  )
}
