// The choices the Compare page offers: the baseline, the smallest difference that matters, and
// drawing the entries as sizes of one thing. Each change is a new URL (a link keeps it).
import type { CompareResult } from '#engine/api/types.ts'
import { Link, navigate } from '../../app/router.tsx'
import { compareUrl, type CompareOptionsInUrl } from './options.ts'

export function CompareControls({
  options,
  result,
}: {
  options: CompareOptionsInUrl
  result: CompareResult | null
}) {
  const go = (change: Parameters<typeof compareUrl>[1]) => navigate(compareUrl(options, change))
  const entries = result?.entries ?? []
  const chosen = result?.baseline
  return (
    <div className="actions">
      {entries.length > 1 && !result?.series ? (
        <label className="inline-label">
          Baseline
          <select
            value={chosen ? `${chosen.runId}:${chosen.target}` : ''}
            onChange={(e) => go({ baseline: e.target.value })}
            data-testid="compare-baseline"
            title="Within a run: the target the others are held against. Across runs: the run the others are held against (targets are paired by name)."
          >
            {entries.map((e) => (
              <option key={`${e.runId}:${e.target}`} value={`${e.runId}:${e.target}`}>
                {e.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="inline-label" title="A smaller difference is reported as no difference that matters">
        Smallest difference that matters ±
        <input
          type="number"
          min={0.5}
          max={100}
          step={0.5}
          className="narrow"
          value={result?.minEffect ?? options.minEffect ?? 5}
          onChange={(e) => go({ margin: e.target.value })}
          data-testid="compare-min-effect"
        />
        %
      </label>
      <label
        className="inline-label"
        title="The entries are sizes of one thing: draw a curve against the value"
      >
        <input
          type="checkbox"
          checked={options.asSeries}
          onChange={(e) => go({ series: e.target.checked })}
          data-testid="compare-as-series"
        />
        Sizes of one thing
      </label>
      <Link className="btn btn-secondary" to="/compare">
        Choose other runs
      </Link>
    </div>
  )
}
