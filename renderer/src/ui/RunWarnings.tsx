// A run's warnings (monitors that could not read their source, a target that reopened connections),
// as the live view and the run's page show them: one line each, in the words the CLI and the report
// use (engine/monitor/warnings.ts).
import type { RunWarning } from '#engine/api/types.ts'
import { warningLine } from '#engine/monitor/warnings.ts'
import { Banner } from './Primitives.tsx'

export function RunWarnings({ warnings, testId }: { warnings: readonly RunWarning[]; testId: string }) {
  if (warnings.length === 0) return null
  const monitors = warnings.filter((w) => w.kind === 'monitor').length
  return (
    <Banner kind="warning" testId={testId}>
      {monitors > 0 && (
        <>
          <b>{monitors === 1 ? 'A monitor failed' : `${monitors} monitors failed`}</b>: the run goes on, its
          CPU and memory charts miss what the monitor could not read.
        </>
      )}
      {monitors < warnings.length && (
        <>
          {monitors > 0 && ' '}
          <b>Connections reopened</b>: a server that ends its connections makes each request wait for a new
          one.
        </>
      )}
      <ul>
        {warnings.map((w, i) => (
          <li key={`${w.field}\u0000${w.message}`} data-testid={`${testId}-${i}`} data-field={w.field}>
            {warningLine(w)}
          </li>
        ))}
      </ul>
    </Banner>
  )
}
