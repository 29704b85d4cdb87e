// What counts as a success (issue 28): an answer whose status is in its rule. By default any status
// from 200 to 399, as wrk, vegeta and k6 count (a 304 to a conditional GET, a redirect, are normal
// answers); `expect: { status: [...] }` on a target, or on a scenario step, replaces it. An answer
// outside its rule is an error of kind `status` ("unexpected status"), its code counted.
// Entries are codes (304), ranges ('200-299') or classes ('2xx').
import { z } from 'zod'

export type StatusEntry = number | string

/** The rule of a target or step that says none. */
export const DEFAULT_SUCCESS: readonly StatusEntry[] = Object.freeze(['200-399'])

/**
 * The rule runs were recorded with before issue 28 (2xx only): migration 019 wrote it into the
 * configs of runs stored before it, and an older export imported says it too (exports/json-import.ts),
 * so a stored run keeps the rule it ran with.
 */
export const LEGACY_SUCCESS: readonly StatusEntry[] = Object.freeze(['2xx'])

const CLASS = /^([1-5])xx$/i
const RANGE = /^(\d{3})\s*[-–]\s*(\d{3})$/

/** An entry as the statuses [lo, hi] it covers, or a message naming what is wrong with it. */
export function statusRange(e: StatusEntry): [number, number] | string {
  if (typeof e === 'number') {
    if (!Number.isInteger(e) || e < 100 || e > 599) return `${e} is not a status code (100–599)`
    return [e, e]
  }
  const s = e.trim()
  const cls = CLASS.exec(s)
  if (cls) return [Number(cls[1]) * 100, Number(cls[1]) * 100 + 99]
  const range = RANGE.exec(s)
  if (range) {
    const lo = Number(range[1])
    const hi = Number(range[2])
    if (lo < 100 || hi > 599) return `"${e}" goes past the status codes (100–599)`
    if (hi < lo) return `"${e}" ends before it starts`
    return [lo, hi]
  }
  if (/^\d{3}$/.test(s)) return statusRange(Number(s))
  return `"${e}" is not a status code (304), a range ('200-299') or a class ('2xx')`
}

const entry = z
  .union([z.number(), z.string()], {
    error: "must be a status code (304), a range ('200-299') or a class ('2xx')",
  })
  .superRefine((e, ctx) => {
    const r = statusRange(e)
    if (typeof r === 'string') ctx.addIssue({ code: 'custom', message: r })
  })

/** `expect: { status: [200, 304] }`: the statuses that count as a success. */
export const ExpectSchema = z
  .object({
    status: z
      .array(entry, { error: "must be a list of status codes, ranges ('200-299') or classes ('2xx')" })
      .min(1, 'must name at least one status')
      .max(50, 'at most 50 entries'),
  })
  .strict()
export type Expect = z.output<typeof ExpectSchema>

/** Which statuses are a success, by status (index 0–599; any status past 599 is not). */
export function successTable(rule: readonly StatusEntry[]): Uint8Array {
  const table = new Uint8Array(600)
  for (const e of rule) {
    const r = statusRange(e)
    if (typeof r === 'string') continue
    table.fill(1, r[0], r[1] + 1)
  }
  return table
}

/** The rule of a target, or of one of its steps: the step's own, else the target's, else the default. */
export function successRule(
  target: { expect?: Expect | undefined },
  step?: { expect?: Expect | undefined; expectStatus?: number | undefined },
): readonly StatusEntry[] {
  if (step?.expect) return step.expect.status
  if (step?.expectStatus !== undefined) return [step.expectStatus]
  return target.expect?.status ?? DEFAULT_SUCCESS
}

/** A rule in words, its ranges merged and in order: "200–399", "200–299, 304". */
export function successText(rule: readonly StatusEntry[]): string {
  const table = successTable(rule)
  const parts: string[] = []
  for (let s = 100; s < 600; s++) {
    if (!table[s]) continue
    let e = s
    while (e + 1 < 600 && table[e + 1]) e++
    parts.push(e === s ? String(s) : `${s}–${e}`)
    s = e
  }
  return parts.join(', ')
}

/**
 * A stored config from before issue 28, with the rule it ran with written into each target that
 * said none (2xx only). Steps without their own rule take the target's.
 */
export function withLegacyRule<T extends { targets: { expect?: unknown }[] }>(config: T): T {
  return {
    ...config,
    targets: config.targets.map((t) =>
      t.expect === undefined ? { ...t, expect: { status: [...LEGACY_SUCCESS] } } : t,
    ),
  }
}
