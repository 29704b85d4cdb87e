// The stacks the engine started (or restarted) for a run before it began, as its config names them:
// the wizard hears them while it waits for runs.start and the live view says so once the run is
// on. Kept for this session only; the stack log on the Stacks page has the whole story.
const byRun = new Map<number, string[]>()

export function recordStartedStacks(runId: number, stacks: readonly string[]): void {
  if (stacks.length) byRun.set(runId, [...new Set(stacks)])
}

export function startedStacks(runId: number): readonly string[] {
  return byRun.get(runId) ?? []
}
