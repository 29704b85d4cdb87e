// The screenshots the repository keeps, written by `npm run docs:screens` alone (never by a test
// stage): the guide's (docs/screens/, shown by docs/studies.md: bench/results/guide.screens.ts,
// beside the `npm run results` database it draws from) and the main screens' (artifacts/screens/:
// the end-to-end specs that call `app.screen`, run here with CANNONADE_SCREENS=1, e2e/support/app.ts). It builds the renderer and runs them in Chromium
// against a real engine. Not a test stage: the pictures are written when the guide is, and
// committed with it. `npm run docs:screens -- e2e/rounds.e2e.ts` takes one file.
import { defineConfig } from 'vitest/config'

/** The end-to-end specs whose screenshots the repository keeps (artifacts/screens/). */
export const KEEPING_SCREENS = ['e2e/figures.e2e.ts', 'e2e/rounds.e2e.ts', 'e2e/web-compare.e2e.ts']

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['bench/results/*.screens.ts', ...KEEPING_SCREENS],
    env: { CANNONADE_SCREENS: '1' },
    testTimeout: 600_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    reporters: ['default'],
  },
})
