// Runs or targets overlaid, as in published runtime comparisons: throughput over time (each aligned
// to its own start), latency percentiles side by side, throughput vs CPU and memory vs throughput.
import { memo, useMemo } from 'react'
import type { RunConfig } from '../../../../engine/config/schema.ts'
import type { ResourcePoint, RunSummary, SeriesPoint } from '../../../../engine/api/types.ts'
import { colour, msValue } from '../../lib/format.ts'
import { throughputVsResources } from '../../lib/series.ts'
import { Bars, TimeChart, XYChart, type Row, type ScatterSet, type SeriesDef } from '../../ui/charts.tsx'

export interface RunData {
  run: RunSummary & { config: RunConfig }
  series: SeriesPoint[]
  resources: ResourcePoint[]
}

function CompareChartsImpl({ data }: { data: readonly RunData[] }) {
  const charts = useMemo(() => {
    const multiRun = data.length > 1
    const label = (runId: number, target: string, round: number, rounds: number) =>
      `${multiRun ? `#${runId} ` : ''}${target}${rounds > 1 ? ` · r${round}` : ''}`
    const defs: SeriesDef[] = []
    const rows = new Map<number, Row>()
    const bars: Record<string, string | number>[] = ['p50', 'p95', 'p99', 'p99.9'].map((p) => ({
      percentile: p,
    }))
    const cpu: ScatterSet[] = []
    const memory: ScatterSet[] = []
    let i = 0
    for (const d of data) {
      const rounds = Math.max(1, ...d.run.results.map((r) => r.round))
      for (const result of d.run.results) {
        const key = label(d.run.runId, result.target, result.round, rounds)
        const c = colour(i++)
        defs.push({ key, label: key, colour: c })
        const own = d.series.filter((p) => p.target === result.target && p.round === result.round)
        const start = own.reduce((m, p) => Math.min(m, p.t), Number.POSITIVE_INFINITY)
        for (const p of own) {
          const t = p.t - start
          const row = rows.get(t) ?? { t }
          row[key] = p.requests
          rows.set(t, row)
        }
        const [b50, b95, b99, b999] = bars
        if (b50 && b95 && b99 && b999) {
          b50[key] = msValue(result.latency.p50)
          b95[key] = msValue(result.latency.p95)
          b99[key] = msValue(result.latency.p99)
          b999[key] = msValue(result.latency.p999)
        }
      }
      for (const target of new Set(d.run.results.map((r) => r.target))) {
        const xy = throughputVsResources(d.series, d.resources, target)
        const key = `${multiRun ? `#${d.run.runId} ` : ''}${target}`
        const c = colour(defs.findIndex((s) => s.key.startsWith(key)))
        if (xy.cpu.length) cpu.push({ label: key, colour: c, points: xy.cpu })
        if (xy.memory.length) memory.push({ label: key, colour: c, points: xy.memory })
      }
    }
    return { defs, throughput: [...rows.values()].sort((a, b) => a.t - b.t), bars, cpu, memory }
  }, [data])

  return (
    <div className="charts">
      <TimeChart
        title="Throughput over time (requests/s, each from its own start)"
        rows={charts.throughput}
        series={charts.defs}
        testId="compare-chart-throughput"
        format={(v) => String(Math.round(v))}
      />
      <Bars
        title="Latency percentiles (ms)"
        rows={charts.bars}
        category="percentile"
        series={charts.defs}
        testId="compare-chart-percentiles"
      />
      {charts.cpu.length > 0 ? (
        <XYChart
          title="Throughput vs CPU"
          sets={charts.cpu}
          xLabel="requests/s"
          yLabel="CPU %"
          testId="compare-chart-cpu"
        />
      ) : null}
      {charts.memory.length > 0 ? (
        <XYChart
          title="Memory vs throughput"
          sets={charts.memory}
          xLabel="requests/s"
          yLabel="memory MiB"
          testId="compare-chart-memory"
        />
      ) : null}
      {charts.cpu.length === 0 && charts.memory.length === 0 ? (
        <p className="muted" data-testid="compare-no-resources">
          No CPU or memory was sampled for these runs. Choose a resource source in the wizard's Monitoring
          step to plot throughput against CPU and memory.
        </p>
      ) : null}
    </div>
  )
}

export const CompareCharts = memo(CompareChartsImpl)
