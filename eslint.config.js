// Type-aware lint, the process boundaries (CONTRIBUTING.md, IPC and API rules: the engine never
// imports electron or the renderer; the renderer imports no Node module) and the layers of engine/
// (LAYERS below: which folder may import which).
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'

const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'child_process',
  'net',
  'http',
  'https',
  'worker_threads',
  'crypto',
]

/**
 * The layers of engine/ (CONTRIBUTING.md "Layers"), from the ground up: each folder and the folders
 * of engine/ its product code may import (its tests may import anything). Nothing imports upward,
 * and engine/cycles.test.ts finds no cycle of folders. Every folder of engine/ is listed: lint
 * refuses to start when one is not, so a new folder takes its place here first. The files at
 * engine/'s top (paths, env, command, http-body, lazy-deps) import no folder; every folder but
 * config/ and import/ may use them.
 */
const LAYERS = {
  // 1. The ground floor: what a RunConfig is.
  config: [],
  // 2. On config: scenarios from text, the contract's vocabulary, statistics, the outside clients.
  import: ['config'],
  api: ['config', 'import'],
  metrics: ['config', 'api'],
  kubernetes: ['config'],
  pg: ['config', 'api'],
  demo: ['config'],
  // The local database's handle: opening, migrations (the schema), disk failures in words.
  db: [],
  // The request record: its columns declared once, the blocks, the `samples` rows and their readers.
  ledger: ['config', 'api', 'db'],
  // 3. What a run is made of, then what runs and reads runs.
  monitor: ['config', 'api', 'metrics', 'kubernetes'],
  stacks: ['config', 'api', 'monitor'],
  store: ['config', 'api', 'metrics', 'monitor', 'db', 'ledger'],
  runner: ['config', 'api', 'metrics', 'monitor', 'stacks', 'db', 'ledger', 'store'],
  agents: [
    'config',
    'api',
    'metrics',
    'kubernetes',
    'pg',
    'monitor',
    'stacks',
    'db',
    'ledger',
    'store',
    'runner',
  ],
  study: ['config', 'api', 'metrics', 'stacks', 'db', 'ledger', 'store', 'runner', 'agents'],
  exports: ['config', 'api', 'metrics', 'pg', 'db', 'ledger', 'store', 'study'],
  report: ['config', 'api', 'metrics', 'monitor', 'db', 'ledger', 'store', 'study', 'exports'],
  // 4. The one Api, wired; its web transport; the command line, a client of the host.
  host: [
    'config',
    'import',
    'api',
    'metrics',
    'kubernetes',
    'pg',
    'demo',
    'monitor',
    'stacks',
    'db',
    'ledger',
    'store',
    'runner',
    'agents',
    'study',
    'exports',
    'report',
  ],
  server: ['config', 'api'],
  cli: ['config', 'import', 'api', 'metrics', 'pg', 'monitor', 'agents', 'exports', 'host', 'server'],
  // Test helpers: above every folder, imported by tests and bench/ only.
  testing: null,
}

/** Why, where a folder's layer has more to say. */
const WHY = {
  config: 'it is the ground floor',
  import: 'it makes configs from text',
  metrics: 'statistics take their data as arguments',
  db: "it opens the database; what is stored is the ledger's and the store's",
  ledger: "it is the request record; the history around it is the store's",
  store: 'callers gather what needs a process or the network and hand it in',
  runner: 'how a load splits over agents is config/split.ts',
  server: 'it serves an Api it is handed; cli/serve.ts starts it',
  cli: 'it goes through the engine host (createEngine), never the runner or the store',
}

const ENGINE_FOLDERS = Object.keys(LAYERS)

const unlisted = readdirSync(join(import.meta.dirname, 'engine'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !(d.name in LAYERS))
  .map((d) => d.name)
if (unlisted.length > 0)
  throw new Error(
    `eslint.config.js: engine/${unlisted.join('/, engine/')}/ has no place in LAYERS (CONTRIBUTING.md "Layers")`,
  )

const engineBoundary = {
  group: ['electron', '**/renderer/**'],
  message: 'engine/ must not import electron or renderer/',
}

/** The import patterns engine/`folder`/'s product code may not use, with why. */
function layerPatterns(folder) {
  const allowed = LAYERS[folder]
  if (allowed === null) return [engineBoundary]
  const denied = ENGINE_FOLDERS.filter((f) => f !== folder && !allowed.includes(f)).map((f) => `**/${f}/**`)
  // config/ and import/ are flat folders: their files reach engine/'s top files as ../x.ts.
  if (folder === 'config' || folder === 'import') denied.push('../*.ts')
  const may = allowed.length ? `only engine/${allowed.join('/, ')}/` : 'no other folder of engine/'
  const message = `engine/${folder}/ may import ${may}${WHY[folder] ? `: ${WHY[folder]}` : ''} (CONTRIBUTING.md "Layers")`
  return [engineBoundary, { group: denied, message }]
}

/** The layer rule of a folder of engine/: its product code (not its tests). */
const layer = (folder, { files = [`engine/${folder}/**/*.ts`], paths = [], patterns = [] } = {}) => ({
  files,
  ignores: ['**/*.test.ts'],
  rules: {
    'no-restricted-imports': ['error', { paths, patterns: [...layerPatterns(folder), ...patterns] }],
  },
})

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'dist-electron/**',
      'release/**',
      'artifacts/**',
      'test-results/**',
      'targets/_java/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
    },
  },
  {
    // The renderer (DOM, JSX) and Electron have their own tsconfigs, which the project service
    // does not find from the root one.
    files: ['renderer/**/*.{ts,tsx}', 'electron/**/*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: false,
        project: ['./tsconfig.renderer.json', './tsconfig.electron.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // Tests read JSON from files and processes: asserting on parsed values is what they are for.
    files: ['**/*.test.ts', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  // Every file of engine/, tests too: no electron, no renderer.
  {
    files: ['engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [engineBoundary] }],
    },
  },
  // engine/'s top files (paths, env, command, http-body, lazy-deps) are below every folder.
  {
    files: ['engine/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            engineBoundary,
            {
              group: ENGINE_FOLDERS.map((f) => `./${f}/**`),
              message: "engine/'s top files are below every folder of engine/: they import none",
            },
          ],
        },
      ],
    },
  },
  // One rule per folder (LAYERS). The store and the ledger also run no process: callers (the supervisor, the
  // writer thread) gather what needs a process or the network and hand the data in.
  ...ENGINE_FOLDERS.filter((f) => f !== 'store' && f !== 'ledger').map((f) => layer(f)),
  ...['store', 'ledger'].map((f) =>
    layer(f, {
      paths: ['child_process', 'node:child_process'].map((name) => ({
        name,
        message: `engine/${f}/ runs no processes (never inside a transaction): the caller hands the data in`,
      })),
    }),
  ),
  // The contract's vocabulary (types, errors, channel names, argument schemas) is apart from the
  // transport ends built from it (client, preload bridge, dispatcher in engine/api/transport/).
  layer('api', {
    files: ['engine/api/*.ts'],
    patterns: [{ group: ['./transport/*'], message: "the contract's vocabulary imports no transport end" }],
  }),
  // No function of product code over 100 lines: a long closure hides the parts a reader needs named
  // (a runner child's watchdog, messages and end; a route table; a wizard editor per kind and row).
  // Tests and test helpers are exempt: a table of cases reads best in one place.
  // `npm run results` (bench/results/) is held to it too: it writes a committed doc.
  {
    files: ['engine/**/*.ts', 'renderer/**/*.{ts,tsx}', 'electron/**/*.ts', 'bench/results/**/*.ts'],
    ignores: ['**/*.test.ts', 'engine/testing/**'],
    rules: { 'max-lines-per-function': ['error', { max: 100 }] },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: nodeBuiltins, message: 'renderer/ runs in a browser: no Node modules' },
            { group: ['electron'], message: 'renderer/ reaches the engine only through the Api' },
            {
              group: ['**/engine/**'],
              message:
                "renderer/ imports engine/ files as #engine/… (package.json's imports), not by a relative path",
            },
          ],
        },
      ],
    },
  },
)
