// End-to-end tests: the built renderer in Debian's Chromium against a real engine (web mode); the
// desktop shell's built main and preload on the Electron stand-in, and on a real Electron where a
// binary exists; packaging with electron-builder. Run by scripts/e2e.mjs after `vite build`; one
// file at a time (a load test and a browser share 2 cores).
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
