// A target's `expect` (engine/config/status-rule.ts) as the wizard edits it: one line of text,
// "200-299, 304", its entries separated by commas: a code, a range ('200-299') or a class ('2xx').
// Empty means the default, 200–399. The schema judges each entry, so a wrong one is named beside
// the field in the engine's words ("\"2xxx\" is not a status code (304), …").
import type { Expect, StatusEntry } from '#engine/config/status-rule.ts'

/** The field's text as the config's `expect`: undefined when empty (the default rule). */
export function expectInput(text: string): { status: StatusEntry[] } | undefined {
  if (text.trim() === '') return undefined
  const status = text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')
    .map((e) => (/^\d+$/.test(e) ? Number(e) : e))
  return { status }
}

/** A config's `expect` as the field's text ('' for none). */
export function expectText(expect: Expect | undefined): string {
  return expect === undefined ? '' : expect.status.join(', ')
}
