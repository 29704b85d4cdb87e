// End-to-end tests: the built renderer in Debian's Chromium against a real engine (web mode),
// plus an Electron smoke test where an Electron binary exists. Run by scripts/e2e.mjs after
// `vite build`; one file at a time (a load test and a browser share 2 cores).
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    reporters: ['default'],
  },
})
