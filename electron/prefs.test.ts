import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openPrefs } from './prefs.ts'

describe('desktop prefs (desktop.json)', () => {
  it('round-trips, merges, and keeps the file private', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-prefs-'))
    const prefs = openPrefs(dir)
    expect(prefs.read()).toEqual({})
    prefs.update({ saveDir: '/home/u/reports' })
    prefs.update({ window: { x: 1, y: 2, width: 1000, height: 700, maximized: false } })
    expect(prefs.read()).toEqual({
      saveDir: '/home/u/reports',
      window: { x: 1, y: 2, width: 1000, height: 700, maximized: false },
    })
    if (process.platform !== 'win32') expect(statSync(prefs.file).mode & 0o777).toBe(0o600)
  })
  it.each([
    ['not json', {}],
    ['null', {}],
    ['[1,2]', {}],
    ['{"window":{"width":"wide"},"saveDir":"/ok"}', { saveDir: '/ok' }],
    [
      '{"window":{"width":1000,"height":700},"saveDir":42}',
      { window: { width: 1000, height: 700, maximized: false } },
    ],
    ['{"window":{"width":-5,"height":700}}', {}],
  ])('ignores what it cannot use, field by field: %s', (text, expected) => {
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-prefs-'))
    writeFileSync(join(dir, 'desktop.json'), text)
    expect(openPrefs(dir).read()).toEqual(expected)
  })
  it('a data folder it cannot write to costs the memory, not the app', () => {
    const prefs = openPrefs(join(tmpdir(), 'cannonade-prefs-missing', 'nested'))
    expect(() => prefs.update({ saveDir: '/x' })).not.toThrow()
    expect(prefs.read()).toEqual({})
  })
  it('writes valid JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-prefs-'))
    openPrefs(dir).update({ saveDir: '/a' })
    expect(JSON.parse(readFileSync(join(dir, 'desktop.json'), 'utf8'))).toEqual({ saveDir: '/a' })
  })
})
