// The runs picked in History, in the order a comparison and a report take them: the oldest first,
// because the first run is the baseline (engine/metrics/compare-pairs.ts) and users hold a newer
// run against an older one, whichever they ticked first (the list shows the newest on top).

export interface Picked {
  runId: number
  /** ISO time the run started (imported runs keep theirs, so it is not the run id's order). */
  startedAt: string
}

/** `picked` with `run` added, or removed if it was there. */
export function toggled(picked: readonly Picked[], run: Picked): Picked[] {
  return picked.some((p) => p.runId === run.runId)
    ? picked.filter((p) => p.runId !== run.runId)
    : [...picked, { runId: run.runId, startedAt: run.startedAt }]
}

/** The picked runs' ids, oldest first (by start, then by id). */
export function oldestFirst(picked: readonly Picked[]): number[] {
  return [...picked]
    .sort((a, b) => (a.startedAt === b.startedAt ? a.runId - b.runId : a.startedAt < b.startedAt ? -1 : 1))
    .map((p) => p.runId)
}
