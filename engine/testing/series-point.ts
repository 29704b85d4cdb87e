// A per-second series point for the renderer's unit tests: every field set, overridable.
import type { SeriesPoint } from '../api/types.ts'

export function testPoint(target: string, t: number, extra: Partial<SeriesPoint> = {}): SeriesPoint {
  return {
    target,
    round: 1,
    t,
    phase: 'main',
    connections: 4,
    requests: 100 + t,
    responses: 100 + t,
    errors: 0,
    errorsByKind: {},
    bytes: 0,
    mean: 1,
    p50: 1,
    p90: 1,
    p95: 1,
    p99: 1,
    p999: 1,
    max: 1,
    generatorCpu: null,
    ...extra,
  }
}
