import { defineConfig } from 'vitest/config'

// Engine, monitor, target and the desktop shell's pure modules run in Node; the browser end-to-end tests run separately
// (scripts/e2e.mjs) because they need a built renderer and a live `cannonade serve`.
export default defineConfig({
  test: {
    include: [
      'engine/**/*.test.ts',
      'targets/**/*.test.ts',
      'renderer/**/*.test.ts',
      'electron/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', 'e2e/**'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    // Load tests measure timing: two of them at once on a 2-core machine would measure each other.
    fileParallelism: false,
    reporters: ['default'],
  },
})
