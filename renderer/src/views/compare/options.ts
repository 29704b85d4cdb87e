// The comparison's options as the Compare page keeps them in its URL (so a link reopens the same
// comparison), and what the page shows as the comparison the user made: the export sends that.
import type { CompareResult } from '#engine/api/types.ts'

export interface CompareOptionsInUrl {
  runIds: number[]
  baseline: { runId: number; target: string } | undefined
  baselineParam: string | null
  minEffect: number | undefined
  asSeries: boolean
}

export function parseIds(text: string | null): number[] {
  return [
    ...new Set(
      (text ?? '')
        .split(',')
        .filter((s) => /^\d+$/.test(s))
        .map(Number),
    ),
  ].filter((n) => n > 0)
}

export function optionsOf(query: URLSearchParams): CompareOptionsInUrl {
  const baselineParam = query.get('baseline')
  const [baseRun, ...baseTarget] = (baselineParam ?? '').split(':')
  const baseline =
    baselineParam && /^\d+$/.test(baseRun ?? '') && baseTarget.length
      ? { runId: Number(baseRun), target: baseTarget.join(':') }
      : undefined
  const margin = Number(query.get('margin'))
  const minEffect = margin > 0 && margin <= 100 ? margin : undefined
  return {
    runIds: parseIds(query.get('runs')),
    baseline,
    baselineParam,
    minEffect,
    asSeries: query.get('series') === '1',
  }
}

/** The URL of the same comparison with one option changed. */
export function compareUrl(
  o: CompareOptionsInUrl,
  change: { baseline?: string; margin?: string; series?: boolean },
): string {
  const params = new URLSearchParams({ runs: o.runIds.join(',') })
  const b = change.baseline ?? o.baselineParam
  if (b) params.set('baseline', b)
  const m = change.margin ?? (o.minEffect !== undefined ? String(o.minEffect) : '')
  if (m) params.set('margin', m)
  if (change.series ?? o.asSeries) params.set('series', '1')
  return `/compare?${params.toString()}`
}

/**
 * The comparison as the page shows it, for the report: the baseline the engine chose (or the
 * user), the margin in force, a curve when the page draws one. The PDF then says what the page says.
 */
export function shownChoice(o: CompareOptionsInUrl, result: CompareResult | null) {
  const baseline = result ? (result.baseline ?? undefined) : o.baseline
  return {
    ...(baseline ? { baseline: { runId: baseline.runId, target: baseline.target } } : {}),
    ...(result
      ? { minEffect: result.minEffect }
      : o.minEffect !== undefined
        ? { minEffect: o.minEffect }
        : {}),
    ...(o.asSeries ? { asSeries: true } : {}),
  }
}
