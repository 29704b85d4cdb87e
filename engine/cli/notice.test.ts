// Issue 20, item 5's class: the engine's notices reach stderr as text. A notice can carry what a
// user typed (the database path of a read-only history names it), so a path holding a clear-screen,
// an OSC title, a CR or a NUL must reach the terminal escaped, the notice's own line kept.
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { openDb } from '../db/db.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { spawnCli } from '../testing/process.ts'
import { noticeTo } from './common.ts'

// [what, hostile text]
const HOSTILE: [string, string][] = [
  ['clear screen', 'x\u001b[2J\u001b[H'],
  ['OSC title (BEL)', '\u001b]0;owned\u0007'],
  ['OSC title (ST)', '\u001b]0;owned\u001b\\'],
  ['CR rewrites the line', 'fine\rFAILED'],
  ['LF forges a line', 'a\ncannonade: forged'],
  ['NUL', 'nul\u0000byte'],
  ['C1 CSI', '\u009b31mred'],
  ['right-to-left override', 'abc\u202edcba'],
]

// Every control byte a terminal acts on, the notice's own newline excepted.
// eslint-disable-next-line no-control-regex -- the bytes looked for
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

function captured(): { stream: Writable; text: () => string } {
  let out = ''
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString()
      done()
    },
  })
  return { stream, text: () => out }
}

const root = mkdtempSync(join(tmpdir(), 'cannonade-notice-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe(`engine notices on stderr are text (hostile cases tried: ${HOSTILE.length + 1})`, () => {
  it.each(HOSTILE)('noticeTo escapes %s, one line per notice', (_what, text) => {
    const { stream, text: out } = captured()
    noticeTo(stream)(`the history database /data/${text}/cannonade.db is read-only`)
    expect(out()).not.toMatch(RAW_CONTROL)
    expect(out().split('\n')).toEqual([
      expect.stringMatching(/^cannonade: the history database \/data\//),
      '',
    ])
  })

  it('a read-only database under a hostile folder name: the real command prints its notice escaped', async () => {
    const dir = join(root, 'data\u001b[2J\u001b]0;owned\u0007\rFAILED')
    mkdirSync(dir)
    const dbPath = join(dir, 'cannonade.db')
    const db = openDb(dbPath)
    insertFixtureRun(db, { samplesPerRound: 20 })
    db.close()
    chmodSync(dbPath, 0o400)
    const r = await spawnCli(['runs', 'list', '--db', dbPath]).result
    expect(r.stderr).toContain('opened read-only')
    expect(r.stderr).toContain('data\\e[2J\\e]0;owned\\x07\\rFAILED')
    expect(r.stderr).not.toMatch(RAW_CONTROL)
  })
})
