// The runs picked in History for a comparison or a report.

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
