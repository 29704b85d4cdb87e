// Issue 20, item 8, with a real stack: a run whose config starts its stack (node-http, native, on a
// local PostgreSQL) opens with the stated 10 s warm-up unless the config says `load.warmupSeconds: 0`;
// said, the run has no warm-up phase at all (the warm-up ran anyway before).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { freePort } from '../stacks/postgres.ts'
import { Stacks, stackStateDir } from '../stacks/stacks.ts'
import { pgAvailableForTests } from '../testing/pg.ts'
import { spawnCli } from '../testing/process.ts'

describe.skipIf(!pgAvailableForTests())('a run that starts its stack', () => {
  it('with load.warmupSeconds: 0 has no warm-up phase, and says none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-stack-warmup-'))
    const db = join(dir, 'c.db')
    const port = await freePort()
    const cfg = join(dir, 'run.yaml')
    writeFileSync(
      cfg,
      `version: 1\nname: cold stack\ntargets:\n  - name: api\n    url: http://127.0.0.1:${port}/health\n` +
        `    stack:\n      name: node-http\n      native: true\n` +
        `load:\n  connections: 2\n  duration: 2\n  warmupSeconds: 0\ncooldownSeconds: 0\n`,
    )
    const out = join(dir, 'run.json')
    const stacks = new Stacks({ stateDir: stackStateDir(db) })
    try {
      const r = await spawnCli(['run', cfg, '--db', db, '--json', out]).result
      expect(r.stderr + r.stdout).toMatch(/stack node-http is/)
      expect(r.code).toBe(0)
      expect(r.stdout + r.stderr).not.toMatch(/warm-up/)
      const s = JSON.parse(readFileSync(out, 'utf8')) as {
        status: string
        targets: { phases: { phase: string; warmup?: boolean }[]; requests: number; seconds: number }[]
      }
      expect(s.status).toBe('done')
      const t = s.targets[0]!
      expect(t.phases.map((p) => p.phase)).toEqual(['main'])
      expect(t.phases.some((p) => p.warmup)).toBe(false)
      expect(t.requests).toBeGreaterThan(0)
      // The window is the config's 2 s, not 2 s after 10 s of warm-up.
      expect(t.seconds).toBeLessThan(3)
    } finally {
      await stacks.down('node-http')
      await stacks.close()
    }
  }, 300_000)
})
