import { defineConfig } from 'vitest/config'

// The tests by what they need, which each file's name says (CONTRIBUTING.md "Tests"):
//   *.test.ts          pure and fixture tests: in parallel
//   *.long.test.ts     fixture tests too long for the fast stage (many child processes, kill -9,
//                      a full disk): in parallel, in `test:all`
//   *.load.test.ts     tests that measure load: one file at a time (two on 2 cores measure each other)
//   *.slow.test.ts     load tests too long for the fast stage: one file at a time, in `test:all`
//   *.pg.test.ts       a real PostgreSQL, started by the test
//   *.docker.test.ts   a real Docker engine
// scripts/test.mjs runs them as stages (`npm test`: typecheck, lint, unit, load; `npm run test:all`
// adds long, slow, pg, docker, end-to-end and packaging); `npx vitest run --project unit` runs one of them. The
// browser end-to-end tests (e2e/*.e2e.ts) have their own config: they need a built renderer.
const ROOTS = ['engine', 'targets', 'renderer', 'electron', 'scripts', 'bench']
const files = (suffix: string) => ROOTS.map((root) => `${root}/**/*${suffix}`)
const KINDS = ['.long.test.ts', '.load.test.ts', '.slow.test.ts', '.pg.test.ts', '.docker.test.ts']

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', 'e2e/**'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: files('.test.ts'),
          exclude: ['**/node_modules/**', 'e2e/**', ...KINDS.flatMap(files)],
        },
      },
      { extends: true, test: { name: 'long', include: files('.long.test.ts') } },
      { extends: true, test: { name: 'load', include: files('.load.test.ts') } },
      { extends: true, test: { name: 'slow', include: files('.slow.test.ts') } },
      { extends: true, test: { name: 'pg', include: files('.pg.test.ts') } },
      { extends: true, test: { name: 'docker', include: files('.docker.test.ts') } },
    ],
  },
})
