// The import graph of a folder's product code (tests and test helpers left out), read from the
// source text: every `import … from './x.ts'`, `export … from`, and `import('./x.ts')`, type-only
// imports included (a type import ties two files' meanings as much as a value import does).
// engine/cycles.test.ts holds engine/ to no cycle; CONTRIBUTING.md "Layers" says why.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'

const SPEC = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g

function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) {
      if (name !== 'node_modules' && name !== 'testing') out.push(...sourceFiles(p))
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p)
  }
  return out
}

/** file → the files of the same tree it imports (paths relative to `root`). */
export function importGraph(root: string, folder: string): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sourceFiles(join(root, folder))) {
    const text = readFileSync(file, 'utf8')
    const deps = new Set<string>()
    for (const m of text.matchAll(SPEC)) {
      const target = normalize(join(dirname(file), m[1]!))
      deps.add(relative(root, target))
    }
    graph.set(relative(root, file), [...deps])
  }
  return graph
}

/** The strongly connected components of more than one file (or a file importing itself): Tarjan. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0
  const idx = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const on = new Set<string>()
  const out: string[][] = []
  const visit = (v: string): void => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    on.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!))
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = []
      let w: string
      do {
        w = stack.pop()!
        on.delete(w)
        comp.push(w)
      } while (w !== v)
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(comp.sort())
    }
  }
  for (const v of graph.keys()) if (!idx.has(v)) visit(v)
  return out
}
