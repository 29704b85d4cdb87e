#!/usr/bin/env node
// Bundles the Electron side into dist-electron/ with Vite's build API (rolldown):
//   main.js           electron/main.ts, ESM (package.json "main")
//   preload.cjs       electron/preload.ts, CommonJS and self-contained (sandboxed preloads cannot import)
//   engine/entry.js   electron/engine-entry.ts + the engine, ESM, run in a utilityProcess
//   engine-host.cjs   tiny CommonJS entry for utilityProcess.fork that imports engine/entry.js
// The engine refers to sibling files at run time (`new URL('./worker.ts', import.meta.url)` for the
// runner process and its writer thread, `migrations/` next to the database handle in engine/db/):
// those become chunks and copies with the same relative names, so the engine code needs no
// Electron-specific path.
// Dependencies (better-sqlite3, autocannon, …) stay external: electron-builder ships node_modules.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'

const root = fileURLToPath(new URL('..', import.meta.url))
const out = join(root, 'dist-electron')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const deps = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})]
const builtins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)]
const isExternal = (id) =>
  id === 'electron' || builtins.includes(id) || deps.some((d) => id === d || id.startsWith(`${d}/`))

/** `new URL('./x.ts', import.meta.url)` in engine code → a chunk named x.js beside the bundle. */
function siblingTsFiles() {
  const pattern = /new URL\((['"])\.\/([\w.-]+)\.ts\1,\s*import\.meta\.url\)/g
  const emitted = new Map()
  return {
    name: 'cannonade-sibling-ts',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('.ts') || !code.includes('import.meta.url')) return null
      let changed = false
      const next = code.replace(pattern, (_m, quote, name) => {
        const file = resolve(dirname(id), `${name}.ts`)
        const previous = emitted.get(name)
        if (previous && previous !== file)
          this.error(`two sibling files named ${name}.ts (${previous}, ${file}): rename one`)
        if (!previous) {
          emitted.set(name, file)
          this.emitFile({ type: 'chunk', id: file, fileName: `${name}.js` })
        }
        changed = true
        return `new URL(${quote}./${name}.js${quote}, import.meta.url)`
      })
      return changed ? { code: next, map: null } : null
    },
  }
}

async function bundle({ entry, outDir, fileName, format, selfContained = false, plugins = [] }) {
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    plugins,
    ssr: selfContained ? { noExternal: true, target: 'node' } : { target: 'node' },
    build: {
      ssr: entry,
      outDir,
      emptyOutDir: false,
      target: 'node22',
      minify: false,
      sourcemap: true,
      rolldownOptions: {
        external: selfContained ? ['electron'] : isExternal,
        output: { format, entryFileNames: fileName, chunkFileNames: '[name]-[hash].js' },
      },
    },
  })
}

rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
await bundle({ entry: 'electron/main.ts', outDir: out, fileName: 'main.js', format: 'es' })
await bundle({
  entry: 'electron/preload.ts',
  outDir: out,
  fileName: 'preload.cjs',
  format: 'cjs',
  selfContained: true,
})
await bundle({
  entry: 'electron/engine-entry.ts',
  outDir: join(out, 'engine'),
  fileName: 'entry.js',
  format: 'es',
  plugins: [siblingTsFiles()],
})
cpSync(join(root, 'engine', 'db', 'migrations'), join(out, 'engine', 'migrations'), { recursive: true })
writeFileSync(
  join(out, 'engine-host.cjs'),
  `// utilityProcess entry: loads the ESM engine bundle (written by scripts/build-electron.mjs).\n` +
    `const { pathToFileURL } = require('node:url')\nconst { join } = require('node:path')\n` +
    `import(pathToFileURL(join(__dirname, 'engine', 'entry.js')).href).catch((err) => {\n` +
    `  console.error(err)\n  process.exit(1)\n})\n`,
)
console.log(`electron bundle written to ${basename(out)}/ (main.js, preload.cjs, engine-host.cjs, engine/)`)
