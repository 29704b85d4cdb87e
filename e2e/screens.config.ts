// The guide's screenshots (docs/screens/, shown by docs/studies.md): `npm run docs:screens` builds
// the renderer and runs e2e/*.screens.ts in Chromium against a real engine. Not a test stage: the
// pictures are written when the guide is, and committed with it.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['e2e/**/*.screens.ts'],
    testTimeout: 600_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    reporters: ['default'],
  },
})
