// Local agents keep their raw ledgers in the data folder (agents/<run key>/agent-<i>/), next to the
// database; they go when their run is deleted. Only folders under that agents/ folder are ever
// removed, whatever a run's distribution block says.
import { readdirSync, rmSync, rmdirSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import type { Distribution } from '../api/types.ts'

export function agentsDataDir(dbPath: string): string {
  return join(dirname(dbPath), 'agents')
}

/** Remove the ledgers a run's local agents left under `root`; returns how many folders went. */
export function removeLocalLedgers(distribution: Distribution | null, root: string): number {
  if (!distribution || distribution.on !== 'local') return 0
  let removed = 0
  const base = resolve(root)
  for (const a of distribution.perAgent) {
    const path = a.ledger.path.slice(a.ledger.path.indexOf(':') + 1)
    const dir = resolve(dirname(path))
    const rel = relative(base, dir)
    // agents/<run key>/agent-<i>: exactly two levels below the root, nothing else.
    if (rel.startsWith('..') || rel.split(sep).length !== 2) continue
    rmSync(dir, { recursive: true, force: true })
    removed++
    const runDir = dirname(dir)
    try {
      if (readdirSync(runDir).length === 0) rmdirSync(runDir)
    } catch {
      // already gone
    }
  }
  return removed
}
