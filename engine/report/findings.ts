// What the run found beside its figures, in the report: what limited each target (from what was
// measured: engine/metrics/limiting.ts) and, with load.warmup: auto, the warm-up found in each
// segment and whether it settled. The words are the CLI's and the run page's.
import { LIMIT_NAMES, LIMIT_RULE } from '../metrics/limiting.ts'
import { STEADY_RULE } from '../metrics/steady.ts'
import { steadyText } from '../metrics/steady-words.ts'
import type { RunReportData } from './data.ts'
import { esc } from './format.ts'

export function findingsSection(d: RunReportData): string {
  const limits = d.run.limitedBy
  const limitRows = limits
    .map(
      (l) =>
        `<tr data-limit="${esc(l.kind)}"><td class="name"><b>${esc(l.target)}</b></td><td>${esc(LIMIT_NAMES[l.kind])}</td><td>${esc(l.text)}${l.found
          .slice(1)
          .map((f) => `<br><span class="muted">also: ${esc(f.text)}</span>`)
          .join('')}</td></tr>`,
    )
    .join('')
  const limitTable = limits.length
    ? `<h3>What limited each target</h3><table class="figures limits"><thead><tr><th class="name">Target</th><th>Limited by</th><th>From what was measured</th></tr></thead>${limitRows}</table><p class="muted">${esc(LIMIT_RULE)}</p>`
    : ''
  const auto = d.run.results.filter((r) => r.steady)
  const steady = auto.length
    ? `<h3>Warm-up found in each segment</h3><ul class="steady">${auto
        .map(
          (r) =>
            `<li${r.steady!.settled ? '' : ' class="unsettled"'}>${esc(r.target)} round ${r.round}: ${esc(steadyText(r.steady!))}</li>`,
        )
        .join('')}</ul><p class="muted">${esc(STEADY_RULE)}</p>`
    : ''
  return limitTable + steady
}
