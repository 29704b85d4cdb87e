// The screenshots the repository keeps (artifacts/screens/) are refreshed by `npm run docs:screens`
// alone: every end-to-end spec that shoots one (`app.screen`, KEPT_SCREENS) is among the files it
// runs, and the test stages write them elsewhere (e2e/support/app.ts; scripts/worktree.mjs fails a
// stage that changes the working tree).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { KEEPING_SCREENS } from '../e2e/screens.config.ts'

const root = join(import.meta.dirname, '..')

describe('the kept screenshots', () => {
  it('come from the specs npm run docs:screens runs', () => {
    const shooting = readdirSync(join(root, 'e2e'))
      .filter((f) => f.endsWith('.e2e.ts'))
      .filter((f) => /\.screen\(|KEPT_SCREENS/.test(readFileSync(join(root, 'e2e', f), 'utf8')))
      .map((f) => `e2e/${f}`)
    expect(shooting.length).toBeGreaterThan(0)
    expect([...KEEPING_SCREENS].sort()).toEqual(shooting.sort())
  })
})
