// The latency distribution of one or more runs (runs.distribution): a curve per target, latency
// against the percentile on a log-scaled tail axis (p50 → p99.999), as in the report; with several
// rounds a band from the fastest to the slowest round; in rate mode each target's corrected
// latency (from the intended send time) beside it, dotted. A target keeps its colour; the same
// target in another run of a comparison is dashed.
import { memo, useMemo } from 'react'
import type { DistributionCurve } from '#engine/api/types.ts'
import { colourFor, msValue } from '../../lib/format.ts'
import { DistributionChart, type DistributionSeries } from '../../ui/charts/DistributionChart.tsx'

export interface RunDistribution {
  runId: number
  curves: readonly DistributionCurve[]
}

/** Chart series from the runs' curves: ms, labelled by run when there are several runs. */
export function distributionSeries(
  runs: readonly RunDistribution[],
  colourOf: (target: string) => string,
): DistributionSeries[] {
  const several = runs.length > 1
  return runs.flatMap((r, runIndex) =>
    r.curves.map((c) => ({
      key: `${r.runId}:${c.target}${c.corrected ? ':corrected' : ''}`,
      label: `${several ? `#${r.runId} ` : ''}${c.target}${c.corrected ? ' from intended send (corrected)' : ''}${c.rounds > 1 ? ` (${c.rounds} rounds)` : ''}`,
      colour: colourOf(c.target),
      dashed: runIndex > 0 || c.corrected === true,
      points: c.points.map(([x, us]): [number, number] => [x, msValue(us)]),
      band: c.band ? c.band.map(([lo, hi]): [number, number] => [msValue(lo), msValue(hi)]) : null,
    })),
  )
}

function DistributionImpl({
  runs,
  targets,
  testId,
}: {
  runs: readonly RunDistribution[]
  /** Target names in the order of their colours (a run's config order; across runs, first seen). */
  targets: readonly string[]
  testId: string
}) {
  const curves = useMemo(() => distributionSeries(runs, colourFor(targets)), [runs, targets])
  return (
    <DistributionChart
      title="Latency distribution (ms): every response, all rounds merged"
      curves={curves}
      testId={testId}
    />
  )
}

export const Distribution = memo(DistributionImpl)
