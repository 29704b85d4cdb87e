// Form fields with their validation message beside them: every field is validated inline with the
// same zod schema the CLI uses (engine/config/schema.ts), so both name the same field. The message
// is tied to the input with aria-describedby and aria-invalid, so screen readers announce it too.
import { useId, useState, type ReactNode } from 'react'

interface FieldProps {
  label: string
  error?: string | undefined
  hint?: ReactNode
  testId: string
  children: (props: {
    id: string
    'aria-invalid': boolean
    'aria-describedby': string | undefined
    'data-testid': string
  }) => ReactNode
  className?: string
}

export function Field({ label, error, hint, testId, children, className }: FieldProps) {
  const id = useId()
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined
  return (
    <div className={`field${error ? ' field-invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        'aria-invalid': Boolean(error),
        'aria-describedby': describedBy,
        'data-testid': testId,
      })}
      {hint ? (
        <div className="field-hint" id={hintId}>
          {hint}
        </div>
      ) : null}
      {error ? (
        <div className="field-error" id={errorId} role="alert" data-testid={`${testId}-error`}>
          {error}
        </div>
      ) : null}
    </div>
  )
}

export interface TextFieldProps {
  label: string
  value: string
  onChange: (value: string) => void
  error?: string | undefined
  hint?: ReactNode
  testId: string
  placeholder?: string
  type?: 'text' | 'url' | 'password'
  className?: string
  autoFocus?: boolean
}

export function TextField({
  label,
  value,
  onChange,
  error,
  hint,
  testId,
  placeholder,
  type = 'text',
  className,
  autoFocus,
}: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} testId={testId} className={className}>
      {(p) => (
        <input
          {...p}
          type={type}
          value={value}
          placeholder={placeholder}
          autoFocus={autoFocus}
          spellCheck={false}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  )
}

export interface NumberFieldProps {
  label: string
  value: number | null | undefined
  onChange: (value: number | undefined) => void
  error?: string | undefined
  hint?: ReactNode
  testId: string
  min?: number
  step?: number | 'any'
  placeholder?: string
  className?: string
}

/**
 * A number input that lets the user type freely ("1.", "") and reports undefined for empty and NaN
 * for garbage, so the schema (not this widget) says what is wrong.
 */
export function NumberField({
  label,
  value,
  onChange,
  error,
  hint,
  testId,
  min,
  step = 'any',
  placeholder,
  className,
}: NumberFieldProps) {
  const toText = (v: number | null | undefined) =>
    v === undefined || v === null || Number.isNaN(v) ? '' : String(v)
  const [text, setText] = useState(() => toText(value))
  const [seen, setSeen] = useState(value)
  if (!Object.is(seen, value)) {
    // Follow outside changes (a loaded template) without fighting the user's typing ("1." is 1).
    setSeen(value)
    const typed = text.trim() === '' ? undefined : Number(text)
    if (!Object.is(typed, value ?? undefined)) setText(toText(value))
  }
  return (
    <Field label={label} error={error} hint={hint} testId={testId} className={className}>
      {(p) => (
        <input
          {...p}
          type="number"
          inputMode="decimal"
          value={text}
          min={min}
          step={step}
          placeholder={placeholder}
          onChange={(e) => {
            setText(e.target.value)
            const raw = e.target.value.trim()
            onChange(raw === '' ? undefined : Number(raw))
          }}
        />
      )}
    </Field>
  )
}

/**
 * Select options from a label per value. Keyed by a union type (a schema's kinds), so the compiler
 * asks for a label when a value is added; options keep the record's order.
 */
export function optionsOf<T extends string>(labels: Record<T, string>): { value: T; label: string }[] {
  return (Object.keys(labels) as T[]).map((value) => ({ value, label: labels[value] }))
}

export interface SelectFieldProps<T extends string> {
  label: string
  value: T
  options: readonly { value: T; label: string }[]
  onChange: (value: T) => void
  error?: string | undefined
  hint?: ReactNode
  testId: string
  className?: string
}

export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  error,
  hint,
  testId,
  className,
}: SelectFieldProps<T>) {
  return (
    <Field label={label} error={error} hint={hint} testId={testId} className={className}>
      {(p) => (
        <select
          {...p}
          value={value}
          onChange={(e) => {
            const next = options.find((o) => o.value === e.target.value)
            if (next) onChange(next.value)
          }}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}

export interface CheckboxFieldProps {
  label: string
  checked: boolean
  onChange: (v: boolean) => void
  testId: string
  hint?: ReactNode
}

export function CheckboxField({ label, checked, onChange, testId, hint }: CheckboxFieldProps) {
  const id = useId()
  return (
    <div className="field field-check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        data-testid={testId}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {hint ? <div className="field-hint">{hint}</div> : null}
    </div>
  )
}
