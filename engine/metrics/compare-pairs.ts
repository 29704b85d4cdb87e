// Which entries are compared with which. Within one run, every target with the chosen baseline
// (default: its first target). Across runs, a target with the target of the same name in the
// baseline run (default: the first run given), or explicit pairs; never every entry against the
// first one whatever its name. Runs of one target each are paired with the baseline run's target.
import { ApiError } from '../api/errors.ts'
import type { CompareEntry } from '../api/types.ts'
import type { RunRounds } from './compare-config.ts'
import type { Round } from './compare-metric.ts'

/** One (run, target) with its rounds, as the comparison sees it. */
export interface Entry extends CompareEntry {
  run: RunRounds
  data: Round[]
}

export interface EntryRef {
  runId: number
  target: string
}

export interface PairChoice {
  baseline: Entry | null
  pairs: [Entry, Entry][]
  /** Entries left without a counterpart, in words. */
  notes: string[]
}

/** Every (run, target) with finished rounds, labelled by name (and run, where names repeat). */
export function entriesOf(runs: readonly RunRounds[]): Entry[] {
  const found = runs.flatMap((run) => {
    // A disturbed round that was repeated (rounds.skipDisturbed) stays out of the comparison.
    const targets = run.targets
      .map((t) => ({ ...t, rounds: t.rounds.filter((r) => !r.noise?.repeated) }))
      .filter((t) => t.rounds.length > 0)
    if (targets.length === 0) {
      throw new ApiError(
        'bad-input',
        `run ${run.runId} has no finished results to compare (status ${run.status})`,
        'runIds',
      )
    }
    return targets.map((t) => ({ run, ...t }))
  })
  const names = found.map((t) => t.target)
  const unique = new Set(names).size === names.length
  return found.map((t) => ({
    runId: t.run.runId,
    target: t.target,
    label: unique ? t.target : `${t.target} (run ${t.run.runId})`,
    rounds: t.rounds.length,
    run: t.run,
    data: t.rounds,
  }))
}

function find(entries: readonly Entry[], ref: EntryRef, field: string): Entry {
  const e = entries.find((x) => x.runId === ref.runId && x.target === ref.target)
  if (e) return e
  const runHas = entries.some((x) => x.runId === ref.runId)
  throw new ApiError(
    'bad-input',
    runHas
      ? `${field}: run ${ref.runId} has no target "${ref.target}" with finished results`
      : `${field}: run ${ref.runId} is not among the compared runs`,
    field,
  )
}

export function choosePairs(
  runs: readonly RunRounds[],
  entries: readonly Entry[],
  opts: { baseline?: EntryRef; pairs?: readonly { baseline: EntryRef; other: EntryRef }[] },
): PairChoice {
  const baseline = opts.baseline ? find(entries, opts.baseline, 'baseline') : null
  if (opts.pairs && opts.pairs.length > 0) {
    const pairs = opts.pairs.map((p, i): [Entry, Entry] => {
      const a = find(entries, p.baseline, `pairs.${i}.baseline`)
      const b = find(entries, p.other, `pairs.${i}.other`)
      if (a === b)
        throw new ApiError('bad-input', `pairs.${i}: an entry cannot be compared with itself`, 'pairs')
      return [a, b]
    })
    return { baseline, pairs, notes: [] }
  }
  if (runs.length === 1) {
    const base = baseline ?? entries[0]!
    return { baseline: base, pairs: entries.filter((e) => e !== base).map((e) => [base, e]), notes: [] }
  }
  const baseRunId = baseline?.runId ?? runs[0]!.runId
  const baseRun = (e: Entry) => e.runId === baseRunId
  // Runs of one target each: the one target of every run against the baseline run's.
  if (runs.every((r) => entries.filter((e) => e.runId === r.runId).length === 1)) {
    const base = baseline ?? entries.find(baseRun)!
    return { baseline: base, pairs: entries.filter((e) => e !== base).map((e) => [base, e]), notes: [] }
  }
  const byName = new Map<string, Entry[]>()
  for (const e of entries) byName.set(e.target, [...(byName.get(e.target) ?? []), e])
  const pairs: [Entry, Entry][] = []
  const alone: Entry[] = []
  for (const group of byName.values()) {
    if (group.length < 2) {
      alone.push(...group)
      continue
    }
    const base = group.find(baseRun) ?? group[0]!
    for (const e of group) if (e !== base) pairs.push([base, e])
  }
  const notes = alone.length
    ? [
        `${alone.map((e) => `${e.target} (run ${e.runId})`).join(', ')} ${alone.length === 1 ? 'has' : 'have'} no target of the same name in the other runs, so ${alone.length === 1 ? 'it is' : 'they are'} not compared; pair targets of different names explicitly to compare them.`,
      ]
    : []
  return { baseline: baseline ?? entries.find(baseRun) ?? null, pairs, notes }
}
