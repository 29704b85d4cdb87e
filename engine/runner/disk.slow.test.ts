// A full disk or an I/O error ends the run, it does not hang it (issue 12, item 3). The data folder
// is put on a real small filesystem (a 20 MB tmpfs; an ext4 image on a loop device whose errors
// remount it read-only), and the real command runs against it: it must end on its own, `failed`,
// exit 1 with a message naming the disk and no stack trace, and what it stored stays readable.
// Needs root (mount); without it the suite says why it is skipped. A slow test (one file at a
// time): filling the disk within the window takes the load a quiet core gives; beside other
// suites' processes a 15 s window once wrote too little to fill 8 MB.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { withEngine } from '../cli/common.ts'
import { peek, spawnCli, waitUntil } from '../testing/process.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'

function mountReason(): string | null {
  if (process.getuid?.() !== 0) return 'not root: mounting a small filesystem needs root'
  try {
    execFileSync('mount', ['--version'], { stdio: 'ignore' })
  } catch {
    return 'no mount command'
  }
  return null
}
const reason = mountReason()
if (reason) console.warn(`skipping disk failure tests: ${reason}`)

const base = mkdtempSync(join(tmpdir(), 'cannonade-disk-'))
const mounts: string[] = []
const loops: string[] = []
let target: CountingTarget

function sh(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
}

function tmpfs(name: string, size: string): string {
  const dir = join(base, name)
  mkdirSync(dir, { recursive: true })
  sh('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir])
  mounts.push(dir)
  return dir
}

function config(name: string, load: string): string {
  const file = join(base, `${name}.yaml`)
  writeFileSync(
    file,
    `version: 1\nname: ${name}\ntargets:\n  - name: t\n    url: ${target.url}/x\nload:\n${load}\ncooldownSeconds: 0\n`,
  )
  return file
}

beforeAll(async () => {
  target = await startTarget()
})
afterEach(() => {
  for (const dir of mounts.splice(0)) {
    try {
      sh('umount', ['-l', dir])
    } catch {
      /* already gone */
    }
  }
  for (const loop of loops.splice(0)) {
    try {
      sh('losetup', ['-d', loop])
    } catch {
      /* already gone */
    }
  }
})
afterAll(async () => {
  await target.close()
  rmSync(base, { recursive: true, force: true })
})

/** The command ended by itself (not by the test's time limit), exit 1, a message, no stack trace. */
function expectCleanFailure(
  r: { code: number; signal: NodeJS.Signals | null; stderr: string },
  text: RegExp,
) {
  expect(r.signal).toBeNull()
  expect(r.code).toBe(1)
  expect(r.stderr).toMatch(text)
  expect(r.stderr).not.toMatch(/^\s+at /m)
}

describe.skipIf(reason !== null)('a disk that fails under a run', () => {
  const full: {
    name: string
    size: string
    load: string
    prefill?: number
    status: string
    /** Requests left in ledger blocks: their expansion into rows ran out of space. */
    blocksLeft?: boolean
  }[] = [
    {
      name: 'the disk fills up during the window',
      size: '8m',
      load: '  connections: 16\n  duration: 15',
      status: 'failed',
    },
    {
      name: 'the disk is nearly full before the run starts',
      size: '20m',
      load: '  connections: 16\n  duration: 15',
      prefill: 17,
      status: 'failed',
    },
    {
      // The blocks fit, their expansion into rows does not: the run is done, its requests stay readable.
      name: 'the disk fills up only when the ledger is expanded after the run',
      // ~1.5 MB of blocks fit; 150 000 rows (~8 MB, and as much again in the WAL) do not.
      size: '14m',
      load: '  connections: 16\n  requests: 150000',
      status: 'done',
      blocksLeft: true,
    },
  ]
  for (const c of full) {
    it(`${c.name}: the run ends ${c.status}, naming the disk, and its requests stay readable`, async () => {
      const dir = tmpfs(c.name.replace(/\W+/g, '-'), c.size)
      const db = join(dir, 'cannonade.db')
      if (c.prefill) {
        // The database exists (migrated) before the disk fills up.
        await withEngine(db, async () => undefined)
        execFileSync('dd', ['if=/dev/zero', `of=${join(dir, 'filler')}`, 'bs=1M', `count=${c.prefill}`], {
          stdio: 'ignore',
        })
      }
      const cli = spawnCli(['run', config('full', c.load), '--db', db, '--quiet'])
      const limit = setTimeout(() => cli.child.kill('SIGKILL'), 60_000)
      const r = await cli.result
      clearTimeout(limit)
      if (c.status === 'failed')
        expectCleanFailure(r, new RegExp(`the disk holding ${dir} is full \\(disk full`))
      else expect(r.code, r.stderr).toBe(0)
      if (c.blocksLeft) {
        expect(peek<{ n: number }>(db, 'SELECT count(*) AS n FROM sample_blocks')?.n).toBeGreaterThan(0)
        // The command says what it could not write as rows, and which command finishes the job.
        expect(r.stderr).toMatch(
          /requests of run \d+ are not yet samples rows \(run \d+: .*disk.*full.*\).*`cannonade runs complete`/,
        )
      }
      await withEngine(db, async (host) => {
        const run = (await host.runs.list()).items[0]!
        const detail = await host.runs.get(run.runId)
        expect(detail.status).toBe(c.status)
        if (c.status === 'failed') expect(detail.error).toMatch(/disk full.*requests stored before were kept/)
        const ledger = await host.runs.ledger(run.runId)
        const inflight = detail.results.reduce((s, x) => s + (x.errors.inflight ?? 0), 0)
        expect(detail.results.reduce((s, x) => s + x.requests, 0) + inflight).toBe(ledger.rows)
        expect((await host.runs.samples(run.runId, { limit: 1 })).total).toBe(ledger.rows)
        // Readable as a file export too (written off the full disk).
        const out = join(base, `${c.name.replace(/\W+/g, '-')}.csv`)
        const csv = await host.local.exportCsv(run.runId, { kind: 'samples', out })
        expect(csv.rows).toBe(ledger.rows)
        if (c.prefill === undefined) expect(ledger.rows).toBeGreaterThan(0)
      })
    }, 90_000)
  }

  // Issue 29, item 16: on 7-10 MB folders the run's end did not fit beside the reserve, every
  // command failed while the disk stayed full, and once it had room the run read "killed or crashed".
  for (const size of ['7m', '9m', '10m'])
    it(`a ${size} data folder that fills: the run ends failed for the disk, read-only commands work while it stays full, and the end says so once there is room`, async () => {
      const dir = tmpfs(`small-${size}`, size)
      const db = join(dir, 'cannonade.db')
      const cli = spawnCli([
        'run',
        config('small', '  connections: 16\n  duration: 15'),
        '--db',
        db,
        '--quiet',
      ])
      const limit = setTimeout(() => cli.child.kill('SIGKILL'), 60_000)
      const r = await cli.result
      clearTimeout(limit)
      expectCleanFailure(r, new RegExp(`the disk holding ${dir} is full \\(disk full`))
      expect(r.stderr).not.toMatch(/marks the run aborted/)
      // The disk is still full: listing and showing the run work.
      for (const args of [
        ['runs', 'list'],
        ['runs', 'show', '1'],
      ]) {
        const read = spawnCli([...args, '--db', db])
        const out = await read.result
        expect([args.join(' '), out.code, out.stderr]).toEqual([
          args.join(' '),
          0,
          expect.not.stringMatching(/^\s+at /m),
        ])
        expect(out.stdout).toMatch(/\b1\b/)
      }
      sh('mount', ['-o', 'remount,size=40m', dir])
      await withEngine(db, async (host) => {
        const run = await host.runs.get(1)
        expect(run.status).toBe('failed')
        expect(run.error).toMatch(/disk full.*requests stored before were kept/)
        expect(run.error).not.toMatch(/killed or crashed/)
      })
    }, 90_000)

  it('an I/O error (the filesystem turns read-only mid-run): the run ends, exit 1, naming the I/O error', async () => {
    const image = join(base, 'ext4.img')
    sh('truncate', ['-s', '64M', image])
    sh('mkfs.ext4', ['-q', '-F', image])
    const loop = sh('losetup', ['-f', '--show', image])
    loops.push(loop)
    const dir = join(base, 'ext4')
    mkdirSync(dir, { recursive: true })
    sh('mount', ['-o', 'errors=remount-ro', loop, dir])
    mounts.push(dir)
    const db = join(dir, 'cannonade.db')
    const cli = spawnCli(['run', config('eio', '  connections: 2\n  duration: 20'), '--db', db, '--quiet'])
    await waitUntil(
      () => (peek<{ n: number }>(db, 'SELECT count(*) AS n FROM series')?.n ?? 0) >= 1,
      20_000,
      'the first second of load',
    )
    // ext4's own error path: the filesystem is remounted read-only, every write fails with EIO/EROFS.
    writeFileSync(`/sys/fs/ext4/${loop.replace('/dev/', '')}/trigger_fs_error`, '1')
    const limit = setTimeout(() => cli.child.kill('SIGKILL'), 60_000)
    const r = await cli.result
    clearTimeout(limit)
    expectCleanFailure(r, new RegExp(`the history database ${db} cannot be (read or )?written`))
  }, 90_000)
})
