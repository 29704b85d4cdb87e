// The import graph of a folder's product code (tests and test helpers left out), read from the
// source text: every `import … from './x.ts'`, `export … from`, and `import('./x.ts')`, type-only
// imports included (a type import ties two files' meanings as much as a value import does), and
// the aliases package.json's `imports` declares (`#engine/x.ts`, the renderer's way into engine/);
// and the same graph with files grouped by folder. engine/cycles.test.ts holds the trees to no
// cycle of files or of folders; CONTRIBUTING.md "Layers" says why.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'

const SPEC = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]((?:\.{1,2}\/|#)[^'"]+)['"]/g

/** package.json's `imports`: alias prefix (`#engine/`) → the folder it stands for (`engine/`). */
const aliasCache = new Map<string, [string, string][]>()
function aliases(root: string): [string, string][] {
  const known = aliasCache.get(root)
  if (known !== undefined) return known
  const { imports = {} } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    imports?: Record<string, string>
  }
  const out = Object.entries(imports)
    .filter(([from, to]) => from.endsWith('/*') && to.startsWith('./') && to.endsWith('/*'))
    .map(([from, to]): [string, string] => [from.slice(0, -1), to.slice(2, -1)])
  aliasCache.set(root, out)
  return out
}

/**
 * The file `spec` names, imported from `file` (both relative to `root`): a relative path or an
 * alias of package.json's `imports`; null for a package.
 */
export function resolveSpec(root: string, file: string, spec: string): string | null {
  if (spec.startsWith('.')) return relative(root, normalize(join(root, dirname(file), spec)))
  if (!spec.startsWith('#')) return null
  const alias = aliases(root).find(([from]) => spec.startsWith(from))
  if (alias === undefined) throw new Error(`${file}: ${spec} is no alias of package.json's imports`)
  return normalize(alias[1] + spec.slice(alias[0].length))
}

function sourceFiles(dir: string, helpers: boolean): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) {
      if (name !== 'node_modules' && (helpers || name !== 'testing')) out.push(...sourceFiles(p, helpers))
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p)
  }
  return out
}

/**
 * file → the files it imports (paths relative to `root`). `helpers` walks test helpers too
 * (engine/testing/): they import the product, which must not import them back.
 */
export function importGraph(
  root: string,
  folder: string,
  { helpers = false }: { helpers?: boolean } = {},
): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sourceFiles(join(root, folder), helpers)) {
    const text = readFileSync(file, 'utf8')
    const deps = new Set<string>()
    const from = relative(root, file)
    for (const m of text.matchAll(SPEC)) deps.add(resolveSpec(root, from, m[1]!)!)
    graph.set(from, [...deps])
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

// A statement that loads a module at run time: `import … from`, `export … from` (a line's first
// word, its names and braces up to `from`, within the statement), `import 'x'` and `import('x')`.
// `import type` and `export type` are erased by the compiler and load nothing.
const VALUE_SPEC =
  /(?:^(?:import|export)(\s+type\b)?(?:(?!\n(?:import|export)\b)[\w*${},\s])*?\bfrom\s*|^import\s*|\bimport\s*\(\s*)['"]([^'"]+)['"]/gm

/** The files and packages a bundle starting at `entry` holds, each with the chain that reaches it. */
export function bundleGraph(
  root: string,
  entry: string,
): { files: Set<string>; packages: Map<string, string[]> } {
  const files = new Set<string>()
  const packages = new Map<string, string[]>()
  const queue: [string, string[]][] = [[entry, [entry]]]
  while (queue.length > 0) {
    const [file, chain] = queue.shift()!
    if (files.has(file)) continue
    files.add(file)
    for (const m of readFileSync(join(root, file), 'utf8').matchAll(VALUE_SPEC)) {
      if (m[1] !== undefined) continue
      const spec = m[2]!
      const dep = resolveSpec(root, file, spec)
      if (dep !== null) {
        if (/\.tsx?$/.test(dep)) queue.push([dep, [...chain, dep]])
      } else {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!
        if (!packages.has(name)) packages.set(name, [...chain, name])
      }
    }
  }
  return { files, packages }
}

/**
 * The folder a file is in, as the layers count them: the first folder below its tree
 * (`engine/store`, `renderer/src/views`, `e2e/pages`), or the tree itself for a file at its top
 * (`engine/paths.ts` is in `engine`). A file in none of `trees` is in none: null.
 */
export function folderOf(file: string, trees: string[]): string | null {
  const tree = trees.find((t) => file.startsWith(`${t}/`))
  if (tree === undefined) return null
  const rest = file.slice(tree.length + 1).split('/')
  return rest.length > 1 ? `${tree}/${rest[0]}` : tree
}

/**
 * `graph`'s files grouped by `group` (a file it gives null is left out): group → the groups it
 * imports from, each arrow with the first file import that makes it, to name in a message.
 */
export function groupGraph(
  graph: Map<string, string[]>,
  group: (file: string) => string | null,
): { graph: Map<string, string[]>; why: Map<string, string> } {
  const out = new Map<string, Set<string>>()
  const why = new Map<string, string>()
  for (const [file, deps] of graph) {
    const a = group(file)
    if (a === null) continue
    if (!out.has(a)) out.set(a, new Set())
    for (const dep of deps) {
      const b = group(dep)
      if (b === null || b === a) continue
      out.get(a)!.add(b)
      if (!why.has(`${a} → ${b}`)) why.set(`${a} → ${b}`, `${file} → ${dep}`)
    }
  }
  return { graph: new Map([...out].map(([k, v]) => [k, [...v].sort()])), why }
}
