// The end-to-end specs read as the steps a user takes: they reach the page through the page objects
// of e2e/pages/ (one per screen), never by a data-testid of their own, so a changed screen is one
// page object to change, not every spec that passes through it.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const e2e = join(import.meta.dirname, '..', 'e2e')

describe('the end-to-end specs', () => {
  it('find the page through page objects: no getByTestId or data-testid selector in a spec', () => {
    const specs = readdirSync(e2e).filter((f) => /\.(e2e|screens|package)\.ts$/.test(f))
    expect(specs.length).toBeGreaterThan(10)
    const direct = specs.flatMap((f) =>
      readFileSync(join(e2e, f), 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          /getByTestId|data-testid/.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [],
        ),
    )
    expect(direct).toEqual([])
  })
})
