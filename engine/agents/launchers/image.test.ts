// The agent image's tag is the hash of what it is built from (image.ts): a change an agent would
// run changes it, so a stale image is never used; tests, test helpers and documentation do not,
// so they never cost a rebuild. On a copy of the layout, no Docker needed.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../../stacks/manifest.ts'
import { agentImage } from './image.ts'

function fixture(): string {
  const root = mkdtempSync(join(tmpdir(), 'cannonade-agent-image-'))
  for (const f of [
    'package.json',
    'package-lock.json',
    'bin/cannonade.mjs',
    'engine/agents/launchers/Dockerfile',
    'engine/agents/agent.ts',
    'engine/agents/README.md',
    'engine/agents/env.test.ts',
    'engine/db/migrations/001_initial.sql',
    'engine/testing/pg.ts',
    'targets/_node/Dockerfile',
    'targets/_node/package.json',
    'targets/_node/package-lock.json',
  ])
    cpSync(join(repoRoot, f), join(root, f))
  return root
}

describe('the agent image tag', () => {
  it('changes with what an agent runs, and only with that', () => {
    const root = fixture()
    const first = agentImage(root)
    expect(first.tag).toMatch(/^cannonade-agent:[0-9a-f]{16}$/)
    // The build context: the engine without tests, test helpers or documentation.
    expect(first.files).toEqual([
      'package.json',
      'package-lock.json',
      'bin/cannonade.mjs',
      'engine/agents/agent.ts',
      'engine/agents/launchers/Dockerfile',
      'engine/db/migrations/001_initial.sql',
    ])
    for (const f of ['engine/agents/README.md', 'engine/agents/env.test.ts', 'engine/testing/pg.ts']) {
      writeFileSync(join(root, f), 'changed')
      expect(agentImage(root).tag, f).toBe(first.tag)
    }
    let last = first.tag
    for (const f of [
      'engine/agents/agent.ts',
      'engine/db/migrations/001_initial.sql',
      'targets/_node/Dockerfile',
    ]) {
      writeFileSync(join(root, f), `changed ${f}`)
      const now = agentImage(root).tag
      expect(now, f).not.toBe(last)
      last = now
    }
    // A new file the engine could import counts too.
    writeFileSync(join(root, 'engine/agents/new.ts'), 'export {}')
    expect(agentImage(root).tag).not.toBe(last)
  })
})
