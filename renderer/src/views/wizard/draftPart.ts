// A piece of the draft one editor works on: its value, how to change it in place, and where the
// schema's messages about it are. An editor per kind (a monitor source, a profile) or per row (a
// phase, a header) takes a Part instead of the whole draft and an index, so it neither repeats the
// way down (`d.load.profile.phases[i] && …`) nor the path of its messages.
import type { Draft, Issues, Patch } from './draft.ts'

export interface Part<T> {
  readonly value: T
  /** Change this piece of a copy of the draft (nothing happens if the piece is gone by then). */
  readonly set: (change: (t: T) => void) => void
  /** The config path of this piece ("targets.0.monitor"), under which its messages are keyed. */
  readonly path: string
  /** The message at `field` below this piece (the piece's own without an argument). */
  readonly at: (field?: string) => string | undefined
  readonly issues: Issues
}

function join(path: string, field: string): string {
  return path === '' ? field : field === '' ? path : `${path}.${field}`
}

export function part<T>(value: T, set: Part<T>['set'], issues: Issues, path: string): Part<T> {
  return { value, set, path, issues, at: (field = '') => issues.get(join(path, field)) }
}

/** The whole draft as a part: the root every other part is taken from. */
export function draftPart(draft: Draft, patch: Patch, issues: Issues): Part<Draft> {
  return part(draft, patch, issues, '')
}

/**
 * The object at `key` of a part's value. Its messages are at `path` below the parent's, which is the
 * key itself unless the draft and the config name it differently ('' when the config has no level
 * for it, as a monitor's `docker` fields sit on the monitor itself).
 */
export function child<T, K extends keyof T>(p: Part<T>, key: K, path: string = String(key)): Part<T[K]> {
  return part(p.value[key], (change) => p.set((t) => change(t[key])), p.issues, join(p.path, path))
}

/** Row `i` of a list part, or null past its end; a change to a row removed meanwhile is dropped. */
export function rowOf<T>(p: Part<T[]>, i: number): Part<T> | null {
  const value = p.value[i]
  if (value === undefined) return null
  const set = (change: (t: T) => void) =>
    p.set((list) => {
      const row = list[i]
      if (row !== undefined) change(row)
    })
  return part(value, set, p.issues, join(p.path, String(i)))
}

/** Every row of a list part, each with its index. */
export function rowsOf<T>(p: Part<T[]>): { row: Part<T>; i: number }[] {
  return p.value.flatMap((_, i) => {
    const row = rowOf(p, i)
    return row ? [{ row, i }] : []
  })
}
