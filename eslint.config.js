// Type-aware lint and the process boundaries (CONTRIBUTING.md, IPC and API rules): the engine never
// imports electron or the renderer; the renderer imports no Node module.
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

/** The folders of engine/, for the layer rules below. */
const ENGINE_FOLDERS = [
  'agents',
  'api',
  'cli',
  'config',
  'demo',
  'exports',
  'host',
  'import',
  'metrics',
  'monitor',
  'pg',
  'report',
  'runner',
  'server',
  'stacks',
  'store',
  'study',
  'testing',
]

const engineBoundary = {
  group: ['electron', '**/renderer/**'],
  message: 'engine/ must not import electron or renderer/',
}

/** A folder of engine/ whose product code (not its tests) must not import `group`. */
const layer = (folder, group, message, paths = []) => ({
  files: [`engine/${folder}/**/*.ts`],
  ignores: ['**/*.test.ts'],
  rules: {
    'no-restricted-imports': ['error', { paths, patterns: [engineBoundary, { group, message }] }],
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
  {
    files: ['engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [engineBoundary] }],
    },
  },
  // The store owns the database and depends on no process of its own: callers (the supervisor,
  // the writer thread) gather what needs a process or the network and hand the data in.
  layer(
    'store',
    ['**/runner/**'],
    'engine/store/ never imports the runner',
    ['child_process', 'node:child_process'].map((name) => ({
      name,
      message: 'engine/store/ runs no processes (never inside a transaction): the caller hands the data in',
    })),
  ),
  // Statistics take the data they work on; the caller loads it from the store.
  layer('metrics', ['**/store/**'], 'engine/metrics/ takes its data as arguments: no store'),
  // The ground floor: what a RunConfig is, its bounds, its compiler and the plan's split over agents.
  // Everything else builds on it, so it imports no other folder of engine/ (CONTRIBUTING.md "Layers").
  layer(
    'config',
    [...ENGINE_FOLDERS.filter((f) => f !== 'config').map((f) => `**/${f}/**`), '../*.ts'],
    'engine/config/ is the ground floor: it imports no other folder of engine/',
  ),
  // Imports turn what a user has (HAR, curl, OpenAPI) into RunConfigs: they build on the ground
  // floor only, so the CLI, the host and tests can call them without a database or a runner.
  layer(
    'import',
    [...ENGINE_FOLDERS.filter((f) => f !== 'config' && f !== 'import').map((f) => `**/${f}/**`), '../*.ts'],
    'engine/import/ makes configs from text: it imports only engine/config/',
  ),
  // The contract's vocabulary (types, errors, channel names, argument schemas) is apart from the
  // transport ends built from it (client, preload bridge, dispatcher in engine/api/transport/).
  {
    files: ['engine/api/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            engineBoundary,
            { group: ['./transport/*'], message: "the contract's vocabulary imports no transport end" },
          ],
        },
      ],
    },
  },
  // The runner measures one process's share; how shares are split and merged across load agents
  // is the agents' business (the split arithmetic is config/split.ts).
  layer('runner', ['**/agents/**'], 'engine/runner/ imports no load agents: the split is config/split.ts'),
  // The web transport serves the engine; the `serve` command (cli/serve.ts) starts it, not the reverse.
  layer('server', ['**/cli/**'], 'engine/server/ imports no command of engine/cli/'),
  // The command line is a client of the engine host (engine/host/index.ts), like the web server and
  // the desktop app: it never wires the runner or the database itself.
  layer(
    'cli',
    ['**/runner/**', '**/store/**'],
    'engine/cli/ goes through the engine host (createEngine), not the runner or the store',
  ),
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
          ],
        },
      ],
    },
  },
)
