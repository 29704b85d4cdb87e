// Pass/fail thresholds, one row each: a metric of a target (or every target), at most or at least a
// value in the metric's own unit (ms, req/s, %); and the correlation id header.
import { isLatencyMetric, THRESHOLD_METRICS, type ThresholdMetric } from '#engine/config/schema.ts'
import { Button } from '../../../ui/Primitives.tsx'
import type { Draft, ThresholdDraft } from '../draft.ts'
import { NumberAt, RemoveRow, SelectAt, TextAt } from '../fields.tsx'
import { child, rowsOf, type Part } from '../draftPart.ts'

const METRICS = THRESHOLD_METRICS.map((m) => ({ value: m, label: m }))
const BOUNDS = [
  { value: 'max', label: 'at most' },
  { value: 'min', label: 'at least' },
] as const

function unitOf(metric: ThresholdMetric): string {
  return isLatencyMetric(metric) ? 'ms' : metric === 'errorRate' ? '%' : 'req/s'
}

function ThresholdRow({
  threshold,
  i,
  targets,
  onRemove,
}: {
  threshold: Part<ThresholdDraft>
  i: number
  targets: readonly { value: string; label: string }[]
  onRemove: () => void
}) {
  const id = `threshold-${i}`
  return (
    <div className="grid-4 row" data-testid={id}>
      <SelectAt
        part={threshold}
        k="metric"
        label="Metric"
        options={METRICS}
        error={undefined}
        testId={`${id}-metric`}
      />
      <SelectAt part={threshold} k="target" label="Target" options={targets} testId={`${id}-target`} />
      <SelectAt
        part={threshold}
        k="bound"
        label="Bound"
        options={BOUNDS}
        error={undefined}
        testId={`${id}-bound`}
      />
      <div className="url-row">
        <NumberAt
          className="grow"
          part={threshold}
          k="value"
          label={`Value (${unitOf(threshold.value.metric)})`}
          error={threshold.at('max') ?? threshold.at('min')}
          testId={`${id}-value`}
        />
        <RemoveRow label={`Remove threshold ${i + 1}`} onRemove={onRemove} />
      </div>
    </div>
  )
}

export function Thresholds({ root }: { root: Part<Draft> }) {
  const thresholds = child(root, 'thresholds')
  const targets = [
    { value: '*', label: 'every target' },
    ...root.value.targets.map((t) => ({ value: t.name, label: t.name })),
  ]
  return (
    <details className="advanced">
      <summary>Thresholds and correlation header</summary>
      <TextAt
        part={root}
        k="correlationHeader"
        label="Correlation id header"
        testId="review-correlation-header"
      />
      {rowsOf(thresholds).map(({ row, i }) => (
        <ThresholdRow
          key={i}
          threshold={row}
          i={i}
          targets={targets}
          onRemove={() => thresholds.set((list) => void list.splice(i, 1))}
        />
      ))}
      <Button
        variant="ghost"
        onClick={() =>
          thresholds.set((list) => void list.push({ metric: 'p99', target: '*', bound: 'max', value: 200 }))
        }
        data-testid="threshold-add"
      >
        Add threshold
      </Button>
    </details>
  )
}
