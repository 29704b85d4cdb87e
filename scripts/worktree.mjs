// What a test run may not change: the files of the working tree that git tracks or would track
// (what it ignores, artifacts/e2e/ and the like, is the runs' own). scripts/test.mjs takes a
// fingerprint of them before and after each stage and fails the stage that changed any.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Each file of `root`'s checkout that differs from HEAD or is untracked (and not ignored), with a
 * hash of its content ('deleted' when gone); null outside a git checkout.
 */
export function dirtyFiles(root) {
  const r = spawnSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all'], {
    cwd: root,
    encoding: 'utf8',
  })
  if (r.status !== 0) return null
  const files = new Map()
  const entries = r.stdout.split('\0')
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]
    if (!entry) continue
    const path = entry.slice(3)
    // A rename or copy names its source next: the source is as gone as a deletion.
    if (entry[0] === 'R' || entry[0] === 'C') files.set(entries[++i], 'deleted')
    files.set(path, fingerprint(join(root, path)))
  }
  return files
}

function fingerprint(file) {
  if (!existsSync(file)) return 'deleted'
  if (!statSync(file).isFile()) return 'not a file'
  return createHash('sha256').update(readFileSync(file)).digest('hex')
}

/** The paths whose state differs between two `dirtyFiles` answers, sorted. */
export function changedFiles(before, after) {
  const paths = new Set([...before.keys(), ...after.keys()])
  return [...paths].filter((p) => before.get(p) !== after.get(p)).sort()
}
