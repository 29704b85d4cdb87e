// Each monitor kind's form (monitor-form.ts, what the wizard's one editor draws) against its schema:
// a form for every kind; every field at a key the schema has, with a control for what that key
// holds (a box for a boolean, a number field for a number, the schema's own values for a choice);
// every key of the schema a field or named as left to config files; choices that show fields
// name options they have. A kind added to the schema fails here until its form is declared.
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { fieldsOf, MONITOR_FORMS, pathOf, type FieldForm, type MonitorForm } from './monitor-form.ts'
import { MONITOR_KINDS, MonitorSpecSchema, type MonitorKind } from './schema-monitor.ts'

type Schema = z.ZodType & { def: { type: string } }

function specSchema(kind: MonitorKind): Schema {
  return MonitorSpecSchema.options.find((o) => o.shape.kind.value === kind) as unknown as Schema
}

/** The schema without its optional wrapper. */
function bare(s: Schema): Schema {
  return s.def.type === 'optional' ? bare((s as unknown as z.ZodOptional<Schema>).unwrap()) : s
}

/** The objects a schema may be: itself, or each option of a union (Cloud Foundry's auth by grant). */
function objects(s: Schema): z.ZodObject[] {
  const b = bare(s)
  if (b.def.type === 'object') return [b as unknown as z.ZodObject]
  if (b.def.type === 'union') return (b as unknown as z.ZodUnion<Schema[]>).options.flatMap(objects)
  return []
}

/** Every schema a path of the spec may be, through objects and unions ('auth.username'). */
function at(kind: MonitorKind, path: string): Schema[] {
  return path
    .split('.')
    .reduce<Schema[]>(
      (found, key) =>
        found.flatMap((s) => objects(s).flatMap((o) => (key in o.shape ? [o.shape[key] as Schema] : []))),
      [specSchema(kind)],
    )
}

/** Every leaf path of a kind's spec but `kind` ('auth.grant', 'auth.username'…). */
function leaves(s: Schema, prefix = ''): string[] {
  return objects(s).flatMap((o) =>
    Object.entries(o.shape).flatMap(([key, v]) => {
      const path = prefix + key
      const deeper = objects(v as Schema)
      return deeper.length ? leaves(v as Schema, `${path}.`) : [path]
    }),
  )
}

/** The values a schema accepts when it is a choice: an enum's, or the literals of a union's options. */
function choices(schemas: Schema[]): string[] {
  return schemas.flatMap((s) => {
    const b = bare(s)
    if (b.def.type === 'enum') return (b as unknown as z.ZodEnum).options.map(String)
    if (b.def.type === 'literal') return [...(b as unknown as z.ZodLiteral<string>).values]
    return []
  })
}

/** What the schema holds at a field's path, as the control that edits it must take it. */
const HOLDS: Record<FieldForm['control'], string[]> = {
  text: ['string'],
  number: ['number'],
  check: ['boolean'],
  select: ['enum', 'literal'],
}

const forms = Object.entries(MONITOR_FORMS) as [MonitorKind, MonitorForm][]

describe("the monitor editor's forms", () => {
  it('are one for each kind of the schema, in its order', () => {
    expect(Object.keys(MONITOR_FORMS)).toEqual(MONITOR_KINDS)
  })

  for (const [kind, form] of forms) {
    const fields = fieldsOf(form)

    it(`${kind}: every field edits a key its schema has, with a control for what it holds`, () => {
      for (const f of fields) {
        const path = pathOf(f)
        if (path === null) continue
        const schemas = at(kind, path)
        expect(schemas.length, `${kind}.${path}`).toBeGreaterThan(0)
        const holds = f.control === 'text' && f.text === 'labels' ? ['record'] : HOLDS[f.control]
        for (const s of schemas) expect(holds, `${kind}.${path}`).toContain(bare(s).def.type)
        if (f.control === 'select')
          expect(f.options.map((o) => o.value).sort(), `${kind}.${path}`).toEqual(choices(schemas).sort())
      }
    })

    it(`${kind}: every key of its schema is a field or left to config files, by name`, () => {
      const edited = fields.map(pathOf).filter((p) => p !== null)
      const keys = [...new Set(leaves(specSchema(kind)))].filter((k) => k !== 'kind')
      expect([...edited, ...form.omitted].sort()).toEqual(keys.sort())
    })

    it(`${kind}: keys and test ids once each; choices show fields with options they have`, () => {
      expect(new Set(fields.map((f) => f.key)).size).toBe(fields.length)
      expect(new Set(fields.map((f) => f.testId)).size).toBe(fields.length)
      for (const f of fields)
        for (const [key, values] of Object.entries(f.when ?? {})) {
          const choice = fields.find((c) => c.key === key)
          expect(choice?.control, `${kind}.${f.key} shown by ${key}`).toBe('select')
          const options = choice?.control === 'select' ? choice.options.map((o) => o.value) : []
          for (const v of values) expect(options, `${kind}.${f.key} shown by ${key}=${v}`).toContain(v)
        }
    })
  }
})
