// Issue 20, item 5: terminal output is text. Runs whose name, tags and note hold terminal control
// sequences (stored through the Api's runs:tag and runs:note, as a client could) are listed and
// shown by the real `cannonade` process: its stdout and stderr hold no control byte but its own
// newlines, and --json stays JSON that reads back the stored text.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../host/index.ts'
import { openDb } from '../db/db.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { printable, printableLines } from './text.ts'

const BIN = fileURLToPath(new URL('../../bin/cannonade.mjs', import.meta.url))

// [what, hostile text]
const HOSTILE: [string, string][] = [
  ['SGR red', '\u001b[31mred\u001b[0m'],
  ['clear screen', 'x\u001b[2J\u001b[H'],
  ['OSC title (BEL)', '\u001b]0;owned\u0007'],
  ['OSC title (ST)', '\u001b]0;owned\u001b\\'],
  ['OSC 52 clipboard', '\u001b]52;c;cm0gLXJmIH4=\u0007'],
  ['CR rewrites the line', 'fine\rFAILED'],
  ['LF forges a line', 'a\nrun 99  forged  (passed)'],
  ['CRLF', 'a\r\nb'],
  ['NUL', 'nul\u0000byte'],
  ['backspaces', 'abc\b\b\bxyz'],
  ['vertical tab and form feed', 'v\u000bf\u000cg'],
  ['DEL', 'del\u007f'],
  ['C1 CSI', '\u009b31mred'],
  ['C1 OSC', '\u009d0;t\u009c'],
  ['bell', 'ding\u0007'],
  ['line separator', 'a\u2028b'],
  ['right-to-left override', 'abc\u202edcba'],
  ['tab', 'a\tb'],
]

// Every control byte a terminal acts on, the CLI's own newline excepted.
// eslint-disable-next-line no-control-regex -- the bytes looked for
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

describe('printable', () => {
  it.each(HOSTILE)('escapes %s, line breaks included', (_what, text) => {
    const out = printable(text)
    expect(out).not.toMatch(RAW_CONTROL)
    expect(out).not.toContain('\n')
  })

  it('keeps text without control characters as it is', () => {
    for (const s of ['plain', 'naïve – ünïcode ✓ 東京', 'a\\nb', '']) expect(printable(s)).toBe(s)
  })

  it('keeps the lines of a block, and a JSON text stays JSON', () => {
    expect(printableLines('a\u001b[2J\nb\n')).toBe('a\\u001b[2J\nb\n')
    const json = JSON.stringify({ s: 'del\u007f c1\u009b' })
    expect(JSON.parse(printableLines(json))).toEqual({ s: 'del\u007f c1\u009b' })
  })
})

describe(`cannonade runs list/show print hostile text escaped (hostile cases tried: ${HOSTILE.length * 3})`, () => {
  let dir: string
  let dbPath: string
  const ids: number[] = []

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cannonade-text-'))
    dbPath = join(dir, 'cannonade.db')
    const db = openDb(dbPath)
    try {
      // A name cannot be set through the Api (a config refuses control characters): a stored run's
      // is written here as an older version or an import could have.
      for (const [, text] of HOSTILE) {
        const id = insertFixtureRun(db, { samplesPerRound: 50 }).runId
        db.prepare('UPDATE runs SET name = ? WHERE id = ?').run(`run ${text}`, id)
        ids.push(id)
      }
    } finally {
      db.close()
    }
    const host = await createEngine({ dbPath })
    try {
      for (const [i, [, text]] of HOSTILE.entries()) {
        await host.runs.tag(ids[i]!, [`tag ${text}`])
        await host.runs.note(ids[i]!, `note ${text}`)
      }
    } finally {
      await host.close()
    }
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const cannonade = (...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...args, '--db', dbPath], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(r.status, r.stderr).toBe(0)
    return r
  }

  it('runs list', () => {
    const r = cannonade('runs', 'list', '--limit', '100')
    expect(r.stdout).not.toMatch(RAW_CONTROL)
    expect(r.stderr).not.toMatch(RAW_CONTROL)
    expect(r.stdout).toContain('run \\e[31mred\\e[0m')
    // One header and one line per run: no name forged a line.
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(HOSTILE.length + 1)
  })

  it.each(HOSTILE.map(([what], i) => [what, i] as const))('runs show of %s', (_what, i) => {
    const r = cannonade('runs', 'show', String(ids[i]))
    expect(r.stdout).not.toMatch(RAW_CONTROL)
    expect(r.stderr).not.toMatch(RAW_CONTROL)
    const text = HOSTILE[i]![1]
    expect(r.stdout).toContain(`note: note ${printable(text)}`)
    expect(r.stdout).toContain(`tags: tag ${printable(text)}`)
    expect(r.stdout).not.toMatch(/^run 99/m)
  })

  it('runs list --json reads back the stored text', () => {
    const r = cannonade('runs', 'list', '--json', '--limit', '100')
    expect(r.stdout).not.toMatch(RAW_CONTROL)
    const page = JSON.parse(r.stdout) as { items: { runId: number; name: string; tags: string[] }[] }
    for (const [i, [, text]] of HOSTILE.entries()) {
      const item = page.items.find((it) => it.runId === ids[i])
      expect(item?.name).toBe(`run ${text}`)
      expect(item?.tags).toEqual([`tag ${text}`])
    }
  })
})
