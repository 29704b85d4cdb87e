// What a run found about each target beside its figures, as `runs show` and `cannonade run`
// print them: the warm-up load.warmup: auto found in each segment (and the segments that never
// settled), and what limited each target (engine/metrics/limiting.ts).
import type { RunSummary } from '../api/types.ts'
import { steadyText } from '../metrics/steady-words.ts'
import { printable } from './text.ts'

/** One line per segment with a found warm-up: "warming round 1: warm-up found: 3 s …". */
export function steadyLines(s: Pick<RunSummary, 'results'>): string[] {
  const auto = s.results.filter((r) => r.steady)
  if (auto.length === 0) return []
  return ['', ...auto.map((r) => `${printable(r.target)} round ${r.round}: ${steadyText(r.steady!)}`)]
}

/** "limited by" per target: the named limit, the evidence, and the others found. */
export function limitLines(s: Pick<RunSummary, 'limitedBy'>): string[] {
  if (s.limitedBy.length === 0) return []
  const out = ['', 'limited by (from what was measured):']
  for (const l of s.limitedBy) {
    // The text names its kind itself ("limited by its CPU: …", "nothing found at its limit…").
    out.push(`  ${printable(l.target)}: ${printable(l.text)}`)
    for (const f of l.found.slice(1)) out.push(`    also: ${printable(f.text)}`)
  }
  return out
}
