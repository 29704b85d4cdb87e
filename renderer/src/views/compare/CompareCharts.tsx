// Runs or targets overlaid, as in published runtime comparisons: the latency distribution of every
// entry, throughput and latency over time (each round aligned to its own start: one line per entry,
// the mean of its rounds, with a band from the lowest to the highest round), throughput vs CPU and
// memory vs throughput, and each run's figures per target, round, phase and scenario step as run
// detail shows them. A target keeps its colour on every screen (engine/report/palette.ts); the same
// target in a later run is dashed.
import { memo, useMemo } from 'react'
import type { RunConfig } from '#engine/config/schema.ts'
import type { ResourcePoint, RunSummary, SeriesPoint } from '#engine/api/types.ts'
import { useApi, useAsync } from '../../api/context.tsx'
import { colourFor, msValue, targetOrder } from '../../lib/format.ts'
import { mergeBandRows, roundBands } from '../../lib/rounds.ts'
import { throughputVsResources } from '../../lib/series.ts'
import { Card } from '../../ui/Primitives.tsx'
import { BandChart } from '../../ui/charts/BandChart.tsx'
import type { SeriesDef } from '../../lib/chart-types.ts'
import { XYChart, type ScatterSet } from '../../ui/charts/XYChart.tsx'
import { Distribution } from '../detail/Distribution.tsx'
import { SummaryTable } from '../detail/SummaryTable.tsx'

export interface RunData {
  run: RunSummary & { config: RunConfig }
  series: SeriesPoint[]
  resources: ResourcePoint[]
}

/** Target names across the runs, in run order then config order: the colours of a comparison. */
export function compareTargets(data: readonly RunData[]): string[] {
  return targetOrder(data.flatMap((d) => d.run.config.targets.map((t) => t.name)))
}

/** Every entry's points, keyed "#run target" when several runs are compared. */
export function entryPoints(data: readonly RunData[]): (SeriesPoint & { key: string; runIndex: number })[] {
  const multiRun = data.length > 1
  return data.flatMap((d, runIndex) =>
    d.series.map((p) => ({ ...p, runIndex, key: `${multiRun ? `#${d.run.runId} ` : ''}${p.target}` })),
  )
}

function CompareChartsImpl({ data }: { data: readonly RunData[] }) {
  const api = useApi()
  const ids = data.map((d) => d.run.runId).join(',')
  const distributions = useAsync(
    () =>
      Promise.all(
        data.map(async (d) => ({ runId: d.run.runId, curves: await api.runs.distribution(d.run.runId) })),
      ),
    // The runs' ids stand for `data`: the same runs, the same curves.
    [api, ids],
  )
  const targets = useMemo(() => compareTargets(data), [data])
  const charts = useMemo(() => {
    const colourOf = colourFor(targets)
    const points = entryPoints(data)
    const keyOf = (p: { key: string }) => p.key
    const defs: SeriesDef[] = []
    for (const p of points)
      if (!defs.some((d) => d.key === p.key))
        defs.push({ key: p.key, label: p.key, colour: colourOf(p.target), dashed: p.runIndex > 0 })
    const throughput = roundBands(points, (p) => p.responses, keyOf)
    const ms = (us: number | null) => (us === null ? null : msValue(us))
    const latency = mergeBandRows(
      roundBands(points, (p) => ms(p.p50), keyOf, ' p50'),
      roundBands(points, (p) => ms(p.p99), keyOf, ' p99'),
    )
    const latencyDefs: SeriesDef[] = defs.flatMap((d) => [
      { ...d, key: `${d.key} p50`, label: `${d.label} p50`, dashed: true },
      { ...d, key: `${d.key} p99`, label: `${d.label} p99` },
    ])
    const cpu: ScatterSet[] = []
    const memory: ScatterSet[] = []
    data.forEach((d) => {
      for (const target of new Set(d.run.results.map((r) => r.target))) {
        const xy = throughputVsResources(d.series, d.resources, target)
        const label = `${data.length > 1 ? `#${d.run.runId} ` : ''}${target}`
        if (xy.cpu.length) cpu.push({ label, colour: colourOf(target), points: xy.cpu })
        if (xy.memory.length) memory.push({ label, colour: colourOf(target), points: xy.memory })
      }
    })
    return { defs, throughput, latency, latencyDefs, cpu, memory }
  }, [data, targets])

  return (
    <>
      <Distribution runs={distributions.data ?? []} targets={targets} testId="compare-chart-distribution" />
      <div className="charts">
        <BandChart
          title="Throughput (responses/s), each round from its own start: mean line, lowest–highest round shaded"
          rows={charts.throughput}
          series={charts.defs}
          testId="compare-chart-throughput"
          format={(v) => String(Math.round(v))}
          integer
          yLabel="responses/s"
        />
        <BandChart
          title="Latency p50 / p99 of the responses (ms), rounds overlaid"
          rows={charts.latency}
          series={charts.latencyDefs}
          testId="compare-chart-latency"
          unit="ms"
        />
        {charts.cpu.length > 0 ? (
          <XYChart
            title="Throughput vs CPU"
            sets={charts.cpu}
            xLabel="responses/s"
            yLabel="CPU %"
            testId="compare-chart-cpu"
          />
        ) : null}
        {charts.memory.length > 0 ? (
          <XYChart
            title="Memory vs throughput"
            sets={charts.memory}
            xLabel="responses/s"
            yLabel="memory MiB"
            testId="compare-chart-memory"
          />
        ) : null}
      </div>
      {charts.cpu.length === 0 && charts.memory.length === 0 ? (
        <p className="muted" data-testid="compare-no-resources">
          No CPU or memory was sampled for these runs. Choose a resource source in the wizard's Monitoring
          step to plot throughput against CPU and memory.
        </p>
      ) : null}
      <RunFigures data={data} />
    </>
  )
}

/** Each run's figures as run detail shows them (per target and round, and over its rounds). */
function RunFigures({ data }: { data: readonly RunData[] }) {
  return (
    <>
      {data.map((d) => (
        <Card
          key={d.run.runId}
          title={`#${d.run.runId} ${d.run.name}: per target and round`}
          testId={`compare-figures-${d.run.runId}`}
        >
          <SummaryTable
            results={d.run.results}
            overRounds={d.run.overRounds}
            testId={`compare-summary-${d.run.runId}`}
          />
        </Card>
      ))}
    </>
  )
}

export const CompareCharts = memo(CompareChartsImpl)
