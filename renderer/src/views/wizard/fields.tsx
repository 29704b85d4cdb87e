// The form fields of renderer/src/ui/Field.tsx bound to a key of a draft part (./draftPart.ts): the value
// is read from the part and a change written back to it, so a field is its label, its key and its
// test id. Its message is `error` when given, else the schema's message at its own key.
import type { ReactNode } from 'react'
import { Button } from '../../ui/Primitives.tsx'
import {
  CheckboxField,
  NumberField,
  SelectField,
  TextField,
  type CheckboxFieldProps,
  type NumberFieldProps,
  type SelectFieldProps,
  type TextFieldProps,
} from '../../ui/Field.tsx'
import type { Num } from './clean.ts'
import type { Part } from './draftPart.ts'

/** The keys of T whose values are exactly V (so V can be written back). */
type KeyOf<T, V> = {
  [K in keyof T]-?: [T[K]] extends [V] ? ([V] extends [T[K]] ? K : never) : never
}[keyof T] &
  string

/** A field of `k` of `part`: the props of the plain field but its value, and a change of its own if it has one. */
type Bound<T, K, P extends { onChange: unknown }> = { part: Part<T>; k: K } & Omit<
  P,
  'value' | 'checked' | 'onChange'
> & { onChange?: P['onChange'] }

function write<T, V>(part: Part<T>, k: keyof T, v: V): void {
  part.set((t) => void ((t as Record<keyof T, V>)[k] = v))
}

/** `error` when the caller passed one (undefined included), else the message at the field's key. */
function messageOf(part: Part<unknown>, k: string, props: { error?: string | undefined }) {
  return 'error' in props ? props.error : part.at(k)
}

export function NumberAt<T>({ part, k, onChange, ...rest }: Bound<T, KeyOf<T, Num>, NumberFieldProps>) {
  return (
    <NumberField
      {...rest}
      value={part.value[k] as Num}
      onChange={onChange ?? ((v) => write(part, k, v))}
      error={messageOf(part, k, rest)}
    />
  )
}

export function TextAt<T>({ part, k, onChange, ...rest }: Bound<T, KeyOf<T, string>, TextFieldProps>) {
  return (
    <TextField
      {...rest}
      value={part.value[k] as string}
      onChange={onChange ?? ((v) => write(part, k, v))}
      error={messageOf(part, k, rest)}
    />
  )
}

export function CheckAt<T>({ part, k, onChange, ...rest }: Bound<T, KeyOf<T, boolean>, CheckboxFieldProps>) {
  return (
    <CheckboxField
      {...rest}
      checked={part.value[k] as boolean}
      onChange={onChange ?? ((v) => write(part, k, v))}
    />
  )
}

/** The keys of T whose values are a union of strings (a choice). */
type ChoiceOf<T> = { [K in keyof T]-?: T[K] extends string ? K : never }[keyof T] & string

export function SelectAt<T, K extends ChoiceOf<T>>({
  part,
  k,
  onChange,
  ...rest
}: Bound<T, K, SelectFieldProps<T[K] & string>>) {
  return (
    <SelectField<T[K] & string>
      {...rest}
      value={part.value[k] as T[K] & string}
      onChange={onChange ?? ((v) => write(part, k, v))}
      error={messageOf(part, k, rest)}
    />
  )
}

/** The ✕ that removes a row, named for screen readers. */
export function RemoveRow({
  label,
  onRemove,
  disabled,
  testId,
  children = '✕',
}: {
  label: string
  onRemove: () => void
  disabled?: boolean
  testId?: string
  children?: ReactNode
}) {
  return (
    <Button variant="ghost" disabled={disabled} onClick={onRemove} aria-label={label} data-testid={testId}>
      {children}
    </Button>
  )
}

/** A message about a list or a group that no single field shows. */
export function GroupError({ message, testId }: { message: string | undefined; testId?: string }) {
  if (!message) return null
  return (
    <div className="field-error" role="alert" data-testid={testId}>
      {message}
    </div>
  )
}

/** A request body as typed (a label around a textarea, as the body fields have always been). */
export function BodyAt<T>({
  part,
  k,
  rows,
  testId,
}: {
  part: Part<T>
  k: KeyOf<T, string>
  rows: number
  testId: string
}) {
  return (
    <label className="field">
      Body
      <textarea
        rows={rows}
        value={part.value[k] as string}
        spellCheck={false}
        onChange={(e) => write(part, k, e.target.value)}
        data-testid={testId}
      />
    </label>
  )
}
