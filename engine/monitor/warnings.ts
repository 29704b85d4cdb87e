// A run's warnings in words: the one formatting the live view, run detail, the CLI and the report
// share, so a failed monitor reads the same everywhere.
import type { RunWarning } from '../api/types.ts'

function seconds(t: number): string {
  return `${t < 10 ? t.toFixed(1) : Math.round(t)} s`
}

/**
 * When it began: "from the start" (before the first request, or within its first half second; a
 * warning read before the run's start was known has no place yet, t null, and is one of those
 * too), or "from 12 s into the run".
 */
/** What a warning is about, as a banner or the report heads it. */
export function warningTitle(w: Pick<RunWarning, 'kind'>): string {
  return w.kind === 'monitor' ? 'Monitor failed' : 'Connections reopened'
}

export function warningWhen(w: Pick<RunWarning, 't'>): string {
  if (w.t === null || w.t < 0.5) return 'from the start'
  return `from ${seconds(w.t)} into the run`
}

/** What the failure cost: nothing from the monitor, or gaps while it kept trying. */
export function warningEffect(w: Pick<RunWarning, 'stopped' | 'count'>): string {
  if (w.stopped) return 'no CPU or memory from it in this run'
  return `it kept trying${w.count > 1 ? ` (reported ${w.count} times)` : ''}; its charts may have gaps`
}

/** Which monitor: "the docker monitor of api (targets.0.monitor)". */
export function warningSubject(w: Pick<RunWarning, 'source' | 'target' | 'field'>): string {
  return `the ${w.source} monitor of ${w.target} (${w.field})`
}

/** One line: which monitor, what failed, from when, and what it means for the figures. */
export function warningLine(w: RunWarning): string {
  // A target's connections: its message says what, where and why.
  if (w.kind !== 'monitor') return `${w.message[0]!.toUpperCase()}${w.message.slice(1)}.`
  const subject = warningSubject(w)
  return `${subject[0]!.toUpperCase()}${subject.slice(1)} failed ${warningWhen(w)}: ${w.message.replace(/[.\s]+$/, '')}. ${warningEffect(w)[0]!.toUpperCase()}${warningEffect(w).slice(1)}.`
}
