// A target's resource monitor as the wizard edits it, and the monitor spec it turns into and comes
// from. What each kind holds is its form (engine/config/monitor-form.ts): a value per field, the
// spec's keys its fields name, and the choices ("select by") that say which of them it gets. These
// functions serve every kind alike; a new kind needs nothing here.
import {
  fieldsOf,
  MONITOR_FORMS,
  pathOf,
  shows,
  type FieldForm,
  type FormValues,
  type SelectForm,
} from '#engine/config/monitor-form.ts'
import type { MonitorKind as SpecKind, MonitorSpec } from '#engine/config/schema-monitor.ts'

/** A monitor kind of the config, or none. */
export type MonitorKind = 'none' | SpecKind

/** Every kind's fields (so switching kinds loses nothing), the kind picked, and what else the config had. */
export type MonitorDraft = { [K in SpecKind]: FormValues<K> } & {
  kind: MonitorKind
  /** More monitors of the target, as the config had them (a postgres one, say): kept, not edited here. */
  more: unknown[]
  /**
   * The target URL for which the user chose to keep a monitor that watches a stack on another port
   * (./monitorFollow.ts): not asked again until the URL changes.
   */
  keptFor?: string
}

/** A field's value in the draft: text, a number being typed (undefined when empty), a box, a choice. */
export type FormValue = string | number | boolean | undefined
type Values = Record<string, FormValue>

/** The kinds of the config, in the order of their forms (the picker's). */
export const SPEC_KINDS = Object.keys(MONITOR_FORMS) as SpecKind[]

function initialOf(f: FieldForm): FormValue {
  if (f.control === 'check') return false
  if (f.control === 'number') return undefined
  if (f.control === 'select') return f.options[0]?.value
  return f.initial ?? ''
}

/** A kind's values as its form starts them. */
function initialValues(kind: SpecKind): Values {
  return Object.fromEntries(fieldsOf(MONITOR_FORMS[kind]).map((f) => [f.key, initialOf(f)]))
}

/** The values of the draft's own kind, to read and write field by field. */
function valuesOf(m: MonitorDraft, kind: SpecKind): Values {
  return m[kind]
}

export function emptyMonitor(): MonitorDraft {
  const kinds = Object.fromEntries(SPEC_KINDS.map((k) => [k, initialValues(k)]))
  return { ...(kinds as { [K in SpecKind]: FormValues<K> }), kind: 'none', more: [] }
}

/** A monitor kept by an older version of the wizard: every kind and field it lacks, as new. */
export function withDefaults(saved: Partial<MonitorDraft> | undefined): MonitorDraft {
  const m = { ...emptyMonitor(), ...saved }
  for (const k of SPEC_KINDS)
    (m as Record<SpecKind, Values>)[k] = { ...initialValues(k), ...(saved?.[k] as Values | undefined) }
  return m
}

/** `job=shop, pod="web-1"` → { job: 'shop', pod: 'web-1' }; an entry without `=` keeps its text as a name the schema refuses. */
export function parseLabels(text: string): Record<string, string> | undefined {
  const out: Record<string, string> = {}
  for (const entry of text.split(/[,\n]/)) {
    const e = entry.trim()
    if (e === '') continue
    const eq = e.indexOf('=')
    const key = (eq < 0 ? e : e.slice(0, eq)).trim()
    const raw = eq < 0 ? '' : e.slice(eq + 1).trim()
    out[key] = /^".*"$/.test(raw) ? raw.slice(1, -1) : raw
  }
  return Object.keys(out).length ? out : undefined
}

/** The labels of a spec as the wizard's field shows them. */
export function labelsText(labels: Record<string, string> | undefined): string {
  return Object.entries(labels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(', ')
}

function getAt(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], obj)
}

function setAt(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.')
  const last = keys.pop()!
  let at = obj
  for (const k of keys) at = (at[k] ??= {}) as Record<string, unknown>
  at[last] = value
}

/** A field's value as the spec takes it; undefined leaves the key out. */
function specValue(f: FieldForm, v: FormValue): unknown {
  if (f.control === 'check') return v === true || undefined
  if (f.control !== 'text') return v
  const text = String(v ?? '')
  if (f.text === 'trimmed') return text.trim()
  if (f.text === 'optional') return text.trim() || undefined
  if (f.text === 'labels') return parseLabels(text)
  return text
}

/** A spec's value as the field shows it. */
function draftValue(f: FieldForm, v: unknown): FormValue {
  if (f.control === 'check') return v === true
  if (f.control === 'number') return typeof v === 'number' ? v : undefined
  if (f.control === 'text' && f.text === 'labels') return labelsText(v as Record<string, string> | undefined)
  return typeof v === 'string' ? v : ''
}

/** The edited monitor as a spec: the fields its choices show, at their keys. */
function primaryInput(m: MonitorDraft): Record<string, unknown> | undefined {
  if (m.kind === 'none') return undefined
  const values = valuesOf(m, m.kind)
  const spec: Record<string, unknown> = { kind: m.kind }
  for (const f of fieldsOf(MONITOR_FORMS[m.kind])) {
    const path = pathOf(f)
    if (path === null || !shows(f, values)) continue
    const v = specValue(f, values[f.key])
    if (v !== undefined) setAt(spec, path, v)
  }
  return spec
}

/** The target's `monitor`: the edited one, and any more it had, as a list when there are several. */
export function monitorInput(m: MonitorDraft): unknown {
  const first = primaryInput(m)
  const all = [...(first ? [first] : []), ...m.more]
  return all.length === 0 ? undefined : all.length === 1 ? all[0] : all
}

/** The edited monitor alone (what the Test button tries). */
export function monitorSpec(m: MonitorDraft): unknown {
  return primaryInput(m)
}

/**
 * The option of a choice the spec stands for: the one whose own fields (shown by it alone) it
 * has a value for, else the one with no fields of its own (a bearer token of "none").
 */
function chosen(choice: SelectForm, fields: FieldForm[], spec: MonitorSpec): string | undefined {
  const own = (option: string) =>
    fields.filter((f) => f.when?.[choice.key]?.length === 1 && f.when[choice.key]![0] === option)
  const found = choice.options.find((o) =>
    own(o.value).some((f) => {
      const path = pathOf(f)
      return path !== null && getAt(spec, path) !== undefined
    }),
  )
  return (found ?? choice.options.find((o) => own(o.value).length === 0))?.value
}

/**
 * A spec into the draft's fields of its kind ("run again", templates): its choices from what it
 * holds, then each field they show from its key (empty when the spec has none); the fields they
 * hide keep what they had, so switching back finds them.
 */
export function monitorFromSpec(monitor: MonitorDraft, spec: MonitorSpec): void {
  const fields = fieldsOf(MONITOR_FORMS[spec.kind])
  const values = { ...valuesOf(monitor, spec.kind) }
  for (const f of fields) {
    if (f.control !== 'select') continue
    const path = pathOf(f)
    const v = path === null ? chosen(f, fields, spec) : getAt(spec, path)
    if (typeof v === 'string') values[f.key] = v
  }
  for (const f of fields) {
    const path = pathOf(f)
    if (path !== null && f.control !== 'select' && shows(f, values))
      values[f.key] = draftValue(f, getAt(spec, path))
  }
  monitor.kind = spec.kind
  ;(monitor as Record<SpecKind, Values>)[spec.kind] = values
}
