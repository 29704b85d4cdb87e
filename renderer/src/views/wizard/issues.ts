// Which of a step's validation messages the page shows next to a field, and words for the ones it
// does not. A step's fields ask for their message by field path (`issues.get('load.rounds')`);
// TrackedIssues remembers what was asked while the step rendered, so whatever no field asked for
// is listed at the top of the step by name instead of being lost ("Fix the fields marked above"
// with nothing marked). New fields need nothing extra: asking for their message is enough.
import type { Issues } from './draft.ts'

export class TrackedIssues extends Map<string, string> {
  /** Field paths a rendered field asked for. */
  readonly asked = new Set<string>()

  override get(field: string): string | undefined {
    this.asked.add(field)
    return super.get(field)
  }
}

/**
 * The entries of `issues` that `keep` selects, each counted as shown: for editors that show a
 * group of messages together (a step's other problems) rather than one per field.
 */
export function showIssues(issues: Issues, keep: (field: string) => boolean): [string, string][] {
  const out: [string, string][] = []
  for (const field of issues.keys()) {
    if (!keep(field)) continue
    const message = issues.get(field)
    if (message !== undefined) out.push([field, message])
  }
  return out
}

/** The fields of `fields` no rendered field asked for (in order). */
export function unshown(fields: readonly string[], tracked: TrackedIssues): string[] {
  return fields.filter((f) => !tracked.asked.has(f))
}

const ONE: Record<string, string> = {
  targets: 'target',
  steps: 'step',
  phases: 'phase',
  stages: 'stage',
  thresholds: 'threshold',
  values: 'value',
  tags: 'tag',
  monitor: 'monitor',
  headers: 'header',
}

/**
 * A field path in words, counting from 1 as the form does: "targets.0.monitor.1.stack" →
 * "target 1 › monitor 2 › stack"; the whole config is "the run".
 */
export function fieldName(field: string): string {
  if (field === '') return 'the run'
  const parts = field.split('.')
  const words: string[] = []
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    const next = parts[i + 1]
    if (next !== undefined && /^\d+$/.test(next) && part in ONE) {
      words.push(`${ONE[part]} ${Number(next) + 1}`)
      i++
    } else words.push(part)
  }
  return words.join(' › ')
}
