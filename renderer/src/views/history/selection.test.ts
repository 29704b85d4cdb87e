// Runs picked in History go to Compare and the report oldest first, whatever order they were
// ticked in: the first run is the baseline, and users hold the newer run against the older.
import { describe, expect, it } from 'vitest'
import { oldestFirst, toggled, type Picked } from './selection.ts'

const run = (runId: number, startedAt: string): Picked => ({ runId, startedAt })

describe('runs picked in History', () => {
  it('go oldest first whatever order they were ticked in', () => {
    // The list shows the newest on top, so a user ticking top to bottom picks the newest first.
    let picked: Picked[] = []
    for (const r of [run(9, '2025-03-02T10:00:00.000Z'), run(4, '2025-03-01T09:00:00.000Z')])
      picked = toggled(picked, r)
    expect(picked.map((p) => p.runId)).toEqual([9, 4])
    expect(oldestFirst(picked)).toEqual([4, 9])
  })

  it('order by when a run started, not by its id (an imported run keeps its start)', () => {
    const imported = run(12, '2024-12-31T23:00:00.000Z')
    expect(oldestFirst([run(7, '2025-01-05T08:00:00.000Z'), imported])).toEqual([12, 7])
    // Runs started in the same instant keep the id's order.
    expect(oldestFirst([run(8, '2025-01-05T08:00:00.000Z'), run(7, '2025-01-05T08:00:00.000Z')])).toEqual([
      7, 8,
    ])
  })

  it('untick a run ticked twice', () => {
    const a = run(1, '2025-01-01T00:00:00.000Z')
    expect(toggled(toggled([], a), a)).toEqual([])
  })
})
