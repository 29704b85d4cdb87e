// No import cycle in the product code (CONTRIBUTING.md "Layers"): each folder stands above what it
// imports, so a module can be read, tested and moved with what is below it. Type-only imports count:
// they tie two files' meanings as a value import does. A cycle is named file → file, to be cut where
// the lower file should not know the higher one.
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cycles, importGraph } from './testing/imports.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

describe('import cycles', () => {
  it.each(['engine', 'renderer/src', 'electron'])('%s has none', (folder) => {
    const graph = importGraph(root, folder)
    expect(graph.size).toBeGreaterThan(10)
    const found = cycles(graph).map((files) => {
      const set = new Set(files)
      return files.flatMap((f) => (graph.get(f) ?? []).filter((d) => set.has(d)).map((d) => `${f} → ${d}`))
    })
    expect(found).toEqual([])
  })

  it('finds a cycle, type-only imports included, and names its arrows', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
    ])
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']])
    expect(cycles(new Map([['self.ts', ['self.ts']]]))).toEqual([['self.ts']])
    expect(
      cycles(
        new Map([
          ['x.ts', ['y.ts']],
          ['y.ts', []],
        ]),
      ),
    ).toEqual([])
  })
})
