// A zombie is not alive (issue 29, item 24): a killed owner or runner whose parent has not reaped
// it yet still answers kill(0) and still has /proc/PID/stat, so its run stayed `running` until it
// was reaped. Against a real zombie: a process whose parent exec'd a program that never waits.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { waitUntil } from '../testing/process.ts'
import { tempDbPath } from '../testing/run-config.ts'
import { openDb } from '../db/db.ts'
import { isAlive, parseStartTicks, parseState, processStart, runIsLive, thisProcess } from './owner.ts'
import { recoverOrphanedRuns } from './recover.ts'

let parent: ChildProcess
let zombie = 0
/** The zombie's start identity as it was recorded while it ran (boot id and start ticks). */
let recorded = ''
beforeAll(async () => {
  // sh starts `sleep 1`, says its pid, then becomes `sleep 30`, which never reaps it. The child lives
  // a second so sh has become `sleep 30` before it ends: a `sleep 0` could end first, and sh reap it.
  parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] })
  let out = ''
  parent.stdout!.on('data', (c: Buffer) => (out += c.toString()))
  zombie = await waitUntil(() => (/^\d+\n/.test(out) ? Number(out.trim()) : undefined), 10_000, 'the pid')
  await waitUntil(() => parseState(readFileSync(`/proc/${zombie}/stat`, 'utf8')) === 'Z', 10_000, 'a zombie')
  const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
  recorded = `${boot}:${parseStartTicks(readFileSync(`/proc/${zombie}/stat`, 'utf8'))}`
})
afterAll(() => {
  parent.kill('SIGKILL')
})

describe('a zombie counts as gone', () => {
  it('by its recorded start identity, and by its pid alone', () => {
    expect(isAlive({ pid: zombie, start: recorded })).toBe(false)
    expect(isAlive({ pid: zombie, start: null })).toBe(false)
    expect(processStart(zombie)).toBeNull()
    // The living stay alive: this process, and the zombie's parent.
    expect(isAlive(thisProcess())).toBe(true)
    expect(isAlive({ pid: parent.pid!, start: processStart(parent.pid!) })).toBe(true)
  })

  it('a run whose owner and runner are zombies is live no more, and is recovered as aborted', async () => {
    const row = { owner_pid: zombie, owner_start: recorded, worker_pid: zombie, worker_start: recorded }
    expect(runIsLive(row)).toBe(false)
    expect(runIsLive({ ...row, owner_pid: null, owner_start: null })).toBe(false)
    const db = openDb(tempDbPath())
    const { runId } = insertFixtureRun(db, { status: 'running', samplesPerRound: 10 })
    db.prepare(
      'UPDATE runs SET owner_pid = ?, owner_start = ?, worker_pid = ?, worker_start = ? WHERE id = ?',
    ).run(zombie, recorded, zombie, recorded, runId)
    const { recovered } = await recoverOrphanedRuns(db, thisProcess())
    expect(recovered.map((r) => r.runId)).toEqual([runId])
    expect(db.prepare('SELECT status FROM runs WHERE id = ?').pluck().get(runId)).toBe('aborted')
    db.close()
  })
})
