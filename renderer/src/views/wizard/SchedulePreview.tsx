// The live preview of the connection schedule: compiled in the page with the engine's own
// compiler (compilePlan + previewSchedule), from the load as the schema parses it. When it cannot
// be drawn it says which field is in the way, by name: the field itself may not be marked yet
// (an emptied field is marked once the user presses Next).
import { useMemo } from 'react'
import { issuesOf } from '#engine/config/issue-words.ts'
import { StoredRunConfigSchema } from '#engine/config/schema.ts'
import { compilePlan, previewSchedule } from '#engine/config/compile.ts'
import { TimeChart } from '../../ui/charts/TimeChart.tsx'
import type { Row } from '../../lib/chart-types.ts'
import { colour, duration } from '../../lib/format.ts'
import type { Draft } from './draft.ts'
import { loadInput } from './draft.ts'
import { fieldName } from './issues.ts'

const LoadSchema = StoredRunConfigSchema.shape.load
// A request-bound run ends when its requests are done; the preview draws it this long.
const ASSUMED_SECONDS = 10
const MAX_PREVIEW_POINTS = 3600

export function SchedulePreview({ draft }: { draft: Draft }) {
  const preview = useMemo(() => {
    const parsed = LoadSchema.safeParse(loadInput(draft.load))
    if (!parsed.success) return { problems: issuesOf(parsed.error, ['load']) }
    const plan = compilePlan(parsed.data)
    const points = previewSchedule(plan, ASSUMED_SECONDS)
    // A long window previews as every n-th second: the shape stays, the chart stays fast.
    const every = Math.max(1, Math.ceil(points.length / MAX_PREVIEW_POINTS))
    const rows: Row[] = points
      .filter((_, i) => i % every === 0)
      .map((p) => ({ t: p.t, connections: p.connections }))
    const last = points[points.length - 1]
    return {
      plan,
      rows,
      seconds: last ? last.t + 1 : 0,
      estimated: points.some((p) => p.estimated),
      problems: null,
    }
  }, [draft.load])

  const targets = draft.targets.length
  const rounds = draft.rounds ?? 1
  const total = preview.plan
    ? preview.seconds * targets * rounds + (draft.cooldownSeconds ?? 0) * Math.max(0, targets * rounds - 1)
    : null

  return (
    <div className="preview" data-testid="schedule-preview">
      {preview.plan ? (
        <>
          <TimeChart
            title="Connections over time (per target)"
            rows={preview.rows}
            series={[{ key: 'connections', label: 'connections', colour: colour(0) }]}
            testId="schedule-preview-chart"
            height={180}
            format={(v) => String(Math.round(v))}
          />
          <p className="muted" data-testid="schedule-preview-summary">
            Up to {preview.plan.maxConnections} connections,{' '}
            {preview.plan.maxRequests !== null
              ? `${preview.plan.maxRequests.toLocaleString()} requests per target`
              : `${duration(preview.seconds)} per target`}
            {preview.estimated ? ` (request-bound parts drawn ${ASSUMED_SECONDS} s long)` : ''}.
            {total !== null && (targets > 1 || rounds > 1)
              ? ` About ${duration(total)} for ${targets} target(s) × ${rounds} round(s) with cool-downs.`
              : ''}
          </p>
        </>
      ) : (
        <p className="muted" data-testid="schedule-preview-invalid">
          No schedule to draw yet:{' '}
          {preview.problems
            .slice(0, 2)
            .map((i) => `${fieldName(i.field)} ${i.message}`)
            .join('; ')}
          {preview.problems.length > 2 ? ` (and ${preview.problems.length - 2} more)` : ''}.
        </p>
      )}
    </div>
  )
}
