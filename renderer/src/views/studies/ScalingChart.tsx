// Throughput against CPU per instance count (the thesis' figure 7.3 and table 7.1): for each value
// of the study, every second of its run as a point (throughput, the CPU of all the target's
// instances together), one colour per value; the table says how much of the CPU the instances had
// they used at the peak. Shown when the target's instances were monitored.
import type { SweepPoint } from '#engine/api/types.ts'
import { colour, count, percent, rate } from '../../lib/format.ts'
import { XYChart } from '../../ui/charts/XYChart.tsx'

export function ScalingChart({
  points,
  name,
  testId,
}: {
  points: readonly SweepPoint[]
  name: string
  testId: string
}) {
  const rows = [...points].filter((p) => p.scaling).sort((a, b) => a.value - b.value)
  if (!rows.length) return null
  const label = (p: SweepPoint) => `${name} ${p.value} · ${p.scaling!.instances} inst.`
  return (
    <div className="study-scaling" data-testid={testId}>
      <XYChart
        title="Throughput against CPU of all instances, per second"
        sets={rows.map((p, i) => ({
          label: label(p),
          colour: colour(i),
          points: p.scaling!.seconds.map((s) => ({ x: s.throughput, y: s.cpu })),
        }))}
        xLabel="requests/s"
        yLabel="CPU %"
        xFormat={(v) => String(Math.round(v))}
        testId={`${testId}-chart`}
      />
      <table className="table" data-testid={`${testId}-table`}>
        <thead>
          <tr>
            <th scope="col">{name}</th>
            <th scope="col" className="num">
              Instances
            </th>
            <th scope="col" className="num">
              Throughput (peak second)
            </th>
            <th scope="col" className="num" title="The highest CPU of all instances together in one second">
              CPU used (peak)
            </th>
            <th scope="col" className="num" title="Instances × the CPU each may use (its limit)">
              CPU available
            </th>
            <th scope="col" className="num">
              Utilized
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => {
            const s = p.scaling!
            return (
              <tr key={p.runId} data-testid={`${testId}-row-${p.value}`}>
                <td>{count(p.value)}</td>
                <td className="num">{s.instances}</td>
                <td className="num">{rate(s.peakThroughput)}</td>
                <td className="num" data-value={s.peakCpu}>
                  {percent(s.peakCpu, 0)}
                </td>
                <td className="num">
                  {s.capacityPerInstance !== null ? percent(s.instances * s.capacityPerInstance, 0) : '–'}
                </td>
                <td className="num" data-value={s.utilization ?? ''}>
                  {s.utilization !== null ? percent(s.utilization * 100, 0) : '–'}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
