// `cannonade stacks` through the real command: status shows the limits the containers really run
// with, down keeps the database unless --volumes, and bad flags exit 2 naming them.
import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../stacks/postgres.ts'
import { Stacks, stackStateDir } from '../stacks/stacks.ts'
import { dockerGate, projectVolumes } from '../testing/docker.ts'

const BIN = fileURLToPath(new URL('../../bin/cannonade.mjs', import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), 'cannonade-cli-stacks-'))

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, CANNONADE_DATA_DIR: dataDir }, timeout: 180_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 99) : 0
        resolve({ code, stdout, stderr })
      },
    )
  })
}

describe('cannonade stacks, bad flags', () => {
  it('exits 2 on a replica count out of range, naming the flag', async () => {
    for (const n of ['0', '17', '1.5']) {
      const r = await cli(['stacks', 'up', 'node-http', '--replicas', n])
      expect(r.code, r.stderr).toBe(2)
      expect(r.stderr).toMatch(/--replicas must be 1-16/)
    }
  })
})

const gate = dockerGate('the stacks CLI with Docker')

describe.skipIf(gate.skip)('cannonade stacks with Docker', () => {
  // The same data folder as the command's (CANNONADE_DATA_DIR), so both see one project.
  const stacks = new Stacks({ stateDir: stackStateDir(join(dataDir, 'cannonade.db')) })
  let port = 0
  beforeAll(async () => {
    if (gate.reason) throw new Error(`CANNONADE_REQUIRE_DOCKER=1 but Docker is unavailable: ${gate.reason}`)
    port = await freePort()
    await stacks.up('node-http', { port, env: { CANNONADE_APP_CPUS: '0.5', CANNONADE_APP_MEM: '256m' } })
  }, 900_000)
  afterAll(async () => {
    await stacks.down('node-http', { volumes: true })
  }, 120_000)

  it('status shows the limits the containers run with, not the manifest', async () => {
    const text = await cli(['stacks', 'status'])
    expect(text.code, text.stderr).toBe(0)
    const line = text.stdout.split('\n').find((l) => l.startsWith('node-http '))
    expect(line).toMatch(new RegExp(`healthy\\s+http://127\\.0\\.0\\.1:${port}\\s+0\\.5 CPU, 256m memory`))
    const json = JSON.parse((await cli(['stacks', 'status', '--json'])).stdout) as {
      name: string
      limits: unknown
      project: string
    }[]
    const st = json.find((s) => s.name === 'node-http')
    expect(st).toMatchObject({ limits: { cpus: 0.5, memory: '256m' }, project: stacks.project('node-http') })
    expect((await cli(['stacks', 'list'])).stdout).toMatch(/node-http/)
  })

  it('down keeps the database volume; down --volumes deletes it', async () => {
    const project = stacks.project('node-http')
    const kept = await cli(['stacks', 'down', 'node-http'])
    expect(kept.code, kept.stderr).toBe(0)
    expect(kept.stdout).toMatch(/node-http is down \(its database is kept; --volumes deletes it\)/)
    expect(projectVolumes(project)).toHaveLength(1)
    const deleted = await cli(['stacks', 'down', 'node-http', '--volumes'])
    expect(deleted.code, deleted.stderr).toBe(0)
    expect(deleted.stdout).toMatch(/node-http is down, its database deleted/)
    expect(projectVolumes(project)).toEqual([])
  }, 180_000)
})
