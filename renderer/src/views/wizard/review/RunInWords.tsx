// The run in plain words before its YAML (the report's words for its configuration): what will be
// sent where, how hard, how long, judged how.
import type { RunConfig } from '#engine/config/schema.ts'
import { configWords } from '#engine/report/sections.ts'
import { Card } from '../../../ui/Primitives.tsx'

export function RunInWords({ config }: { config: RunConfig }) {
  const w = configWords(config)
  const rows: [string, string | string[]][] = [
    ['Targets', w.targets],
    ['Connections', w.connections],
    ['Load shape', w.profile],
    ['Duration', w.window],
    ['Rounds', w.schedule],
    ['Rate', w.rate],
    ['Connection', w.connection],
    ['Thresholds', w.thresholds.length ? w.thresholds : 'none'],
  ]
  if (config.sweep)
    rows.push(['Study', `one run per value of ${config.sweep.path}: ${config.sweep.values.join(', ')}`])
  return (
    <Card title="This run" testId="review-summary">
      <table className="kv">
        <tbody>
          {rows.map(([label, text]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td data-testid={`review-summary-${label.toLowerCase().replace(/ /g, '-')}`}>
                {Array.isArray(text) ? text.map((line) => <div key={line}>{line}</div>) : text}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  )
}
