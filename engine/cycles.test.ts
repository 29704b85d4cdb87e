// No import cycle (CONTRIBUTING.md "Layers"): each folder stands above what it imports, so a module
// can be read, tested and moved with what is below it. Type-only imports count: they tie two files'
// meanings as a value import does. Checked three ways, over engine/, renderer/src/, electron/,
// bench/ and e2e/: no cycle of files in a tree; no cycle of folders (a tree's first-level folders,
// engine/testing/ included: it stands above every folder of engine/, which never imports it); no
// cycle of trees. A cycle is named by its arrows, to be cut where the lower side should not know
// the higher one. Beside it, what the renderer's bundle holds: only browser packages, whatever
// engine/ file it reaches (issue 28: pg-connection-string came in through the settings schema, and
// Vite warned of Node's fs on every build).
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { bundleGraph, cycles, folderOf, groupGraph, importGraph, resolveSpec } from './testing/imports.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const TREES = ['engine', 'renderer/src', 'electron', 'bench', 'e2e']

/** Every arrow inside each cycle of `graph`, with `why` an arrow stands for (a file's import). */
function arrows(graph: Map<string, string[]>, why?: Map<string, string>): string[] {
  return cycles(graph).flatMap((members) => {
    const set = new Set(members)
    return members.flatMap((a) =>
      (graph.get(a) ?? [])
        .filter((b) => set.has(b))
        .map((b) => `${a} → ${b}${why ? ` (${why.get(`${a} → ${b}`)})` : ''}`),
    )
  })
}

/** The product code of every tree with engine/testing/'s helpers, as one graph. */
function wholeGraph(): Map<string, string[]> {
  return new Map(TREES.flatMap((tree) => [...importGraph(root, tree, { helpers: true })]))
}

describe('import cycles', () => {
  it.each(TREES)('%s has no cycle of files', (tree) => {
    const graph = importGraph(root, tree)
    expect(graph.size).toBeGreaterThan(10)
    expect(arrows(graph)).toEqual([])
  })

  it('no cycle of folders', () => {
    const { graph, why } = groupGraph(wholeGraph(), (f) => folderOf(f, TREES))
    expect(graph.has('engine/testing')).toBe(true)
    expect(graph.has('renderer/src/views')).toBe(true)
    expect(graph.size).toBeGreaterThan(30)
    expect(arrows(graph, why)).toEqual([])
  })

  it('no cycle of trees', () => {
    const { graph, why } = groupGraph(wholeGraph(), (f) => TREES.find((t) => f.startsWith(`${t}/`)) ?? null)
    expect([...graph.keys()].sort()).toEqual([...TREES].sort())
    // The renderer reaches engine/ through package.json's alias (#engine/…), read as a path.
    expect(graph.get('renderer/src')).toContain('engine')
    expect(arrows(graph, why)).toEqual([])
  })

  it("CONTRIBUTING's Layers names every folder of engine/", () => {
    const text = readFileSync(`${root}/CONTRIBUTING.md`, 'utf8')
    const layers = text.slice(text.indexOf('## Layers'), text.indexOf('\n## ', text.indexOf('## Layers') + 1))
    const folders = readdirSync(`${root}/engine`, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
    expect(folders.filter((f) => !layers.includes(`\`engine/${f}/\``))).toEqual([])
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

  it('finds a cycle of folders that no cycle of files makes', () => {
    // host/a.ts → study/b.ts → host/c.ts: no file cycle, but host ↔ study.
    const files = new Map([
      ['engine/host/a.ts', ['engine/study/b.ts']],
      ['engine/study/b.ts', ['engine/host/c.ts']],
      ['engine/host/c.ts', ['engine/paths.ts']],
      ['engine/paths.ts', []],
      ['engine/store/deep/d.ts', ['engine/host/a.ts', 'scripts/x.ts']],
    ])
    expect(cycles(files)).toEqual([])
    const { graph, why } = groupGraph(files, (f) => folderOf(f, TREES))
    expect(graph.get('engine/store')).toEqual(['engine/host'])
    expect(arrows(graph, why)).toEqual([
      'engine/host → engine/study (engine/host/a.ts → engine/study/b.ts)',
      'engine/study → engine/host (engine/study/b.ts → engine/host/c.ts)',
    ])
    expect(folderOf('renderer/src/main.tsx', TREES)).toBe('renderer/src')
    expect(resolveSpec(root, 'renderer/src/views/run/x.tsx', '#engine/config/schema.ts')).toBe(
      'engine/config/schema.ts',
    )
    expect(resolveSpec(root, 'renderer/src/views/run/x.tsx', '../../lib/format.ts')).toBe(
      'renderer/src/lib/format.ts',
    )
    expect(resolveSpec(root, 'renderer/src/main.tsx', 'react')).toBeNull()
    expect(() => resolveSpec(root, 'renderer/src/main.tsx', '#nowhere/x.ts')).toThrow(/no alias/)
    expect(folderOf('renderer/src/views/wizard/draft.ts', TREES)).toBe('renderer/src/views')
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
