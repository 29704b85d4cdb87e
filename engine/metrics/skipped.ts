// A scenario's skipped steps (issue 28): when a step fails (an unexpected status, a capture that
// found nothing, a timeout…) the rest of its pass is not sent. The runner counts, per segment, the
// passes in which step j was skipped after step k failed (runner/segment.ts SkipTally, flat at
// [j × steps + k]); each step's summary holds its own by the name of the step that failed.

/** Flat skip counts as each step's `skipped` ({ login: 1204 }), undefined for a step never skipped. */
export function skippedByStep(
  names: readonly string[],
  flat: readonly number[] | undefined,
): (Record<string, number> | undefined)[] {
  const n = names.length
  return names.map((_, j) => {
    if (!flat) return undefined
    const out: Record<string, number> = {}
    for (let k = 0; k < n; k++) {
      const count = flat[j * n + k] ?? 0
      if (count > 0) out[names[k]!] = count
    }
    return Object.keys(out).length ? out : undefined
  })
}

/** Flat skip counts of several agents or segments, added. */
export function addSkipped(all: readonly (readonly number[] | undefined)[]): number[] | undefined {
  let sum: number[] | undefined
  for (const flat of all) {
    if (!flat) continue
    sum ??= flat.map(() => 0)
    flat.forEach((n, i) => (sum![i] = (sum![i] ?? 0) + n))
  }
  return sum
}

/** A step's skips in words: "skipped after login failed: 1,204 · after browse failed: 3". */
export function skippedText(
  skipped: Readonly<Record<string, number>>,
  fmt: (n: number) => string = String,
): string {
  const parts = Object.entries(skipped).map(([step, n]) => `after ${step} failed: ${fmt(n)}`)
  return parts.length ? `skipped ${parts.join(' · ')}` : ''
}
