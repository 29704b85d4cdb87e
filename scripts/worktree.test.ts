// The guard of scripts/test.mjs: a stage that writes into the working tree (a tracked file, or a new
// file git would track) is named; what git ignores (artifacts/e2e/, dist/) and a file that was
// already changed and stays as it was are not.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { changedFiles, dirtyFiles } from './worktree.mjs'

function checkout(): string {
  const root = mkdtempSync(join(tmpdir(), 'cannonade-worktree-'))
  const git = (...args: string[]) => {
    const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root })
    expect(r.status, String(r.stderr)).toBe(0)
  }
  git('init', '-q')
  mkdirSync(join(root, 'artifacts', 'screens'), { recursive: true })
  writeFileSync(join(root, '.gitignore'), 'artifacts/*\n!artifacts/screens/\n')
  writeFileSync(join(root, 'artifacts', 'screens', 'compare.png'), 'kept')
  writeFileSync(join(root, 'README.md'), 'readme')
  writeFileSync(join(root, 'old.txt'), 'old')
  git('add', '-A')
  git('commit', '-qm', 'first')
  return root
}

describe('the working tree as a test run found it', () => {
  it('names a committed screenshot rewritten, a new file and a deleted one; not what git ignores', () => {
    const root = checkout()
    // Edits made before the run: they are the user's, and stay as they were.
    writeFileSync(join(root, 'README.md'), 'being edited')
    writeFileSync(join(root, 'notes.txt'), 'mine')
    const before = dirtyFiles(root)!
    expect([...before.keys()].sort()).toEqual(['README.md', 'notes.txt'])

    mkdirSync(join(root, 'artifacts', 'e2e'))
    writeFileSync(join(root, 'artifacts', 'e2e', 'run.png'), 'a test run writes here')
    expect(changedFiles(before, dirtyFiles(root)!)).toEqual([])

    writeFileSync(join(root, 'artifacts', 'screens', 'compare.png'), 'rewritten')
    writeFileSync(join(root, 'new.txt'), 'new')
    rmSync(join(root, 'old.txt'))
    writeFileSync(join(root, 'notes.txt'), 'changed by the run')
    expect(changedFiles(before, dirtyFiles(root)!)).toEqual([
      'artifacts/screens/compare.png',
      'new.txt',
      'notes.txt',
      'old.txt',
    ])
  })

  it('says nothing outside a git checkout', () => {
    expect(dirtyFiles(mkdtempSync(join(tmpdir(), 'cannonade-no-git-')))).toBeNull()
  })
})
