// End-to-end tests: the built renderer in Debian's Chromium against a real engine (web mode), and
// the desktop shell's built main and preload on the Electron stand-in, and on a real Electron where a
// binary exists (project `e2e`: e2e/*.e2e.ts); packaging with electron-builder (project `package`:
// e2e/*.package.ts). Run by scripts/e2e.mjs after `vite build`.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A screen follows the engine's events: on a loaded 2-core machine an event can take seconds to
    // show, past expect.poll's default second. A poll still ends at the first value that matches.
    expect: { poll: { timeout: 15_000 } },
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'e2e', include: ['e2e/**/*.e2e.ts'] } },
      { extends: true, test: { name: 'package', include: ['e2e/**/*.package.ts'], testTimeout: 600_000 } },
    ],
  },
})
