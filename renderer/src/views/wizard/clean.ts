// Shared by the draft modules: number fields may be empty while the user types.
export type Num = number | undefined

/** Drop undefined so the document reads like a hand-written config (and YAML shows no nulls). */
export function clean<T extends Record<string, unknown>>(obj: T): Partial<T> {
  const out: Partial<T> = {}
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) (out as Record<string, unknown>)[k] = v
  return out
}
