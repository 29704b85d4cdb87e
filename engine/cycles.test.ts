// No import cycle in the product code (CONTRIBUTING.md "Layers"): each folder stands above what it
// imports, so a module can be read, tested and moved with what is below it. Type-only imports count:
// they tie two files' meanings as a value import does. A cycle is named file → file, to be cut where
// the lower file should not know the higher one. Beside it, what the renderer's bundle holds: only
// browser packages, whatever engine/ file it reaches (issue 28: pg-connection-string came in through
// the settings schema, and Vite warned of Node's fs on every build).
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { bundleGraph, cycles, importGraph } from './testing/imports.ts'

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

/** The packages the renderer may bundle: each one runs in a browser. */
const BROWSER_PACKAGES = ['react', 'react-dom', 'recharts', 'yaml', 'zod']

describe("the renderer's bundle", () => {
  it('holds browser packages only, whatever engine/ file it imports', () => {
    const { files, packages } = bundleGraph(root, 'renderer/src/main.tsx')
    expect(files.size).toBeGreaterThan(100)
    expect([...files].some((f) => f.startsWith('engine/config/'))).toBe(true)
    const outside = [...packages].filter(([name]) => !BROWSER_PACKAGES.includes(name))
    expect(outside.map(([, chain]) => chain.join(' → '))).toEqual([])
    expect(packages.has('pg-connection-string')).toBe(false)
  })
})
