// `npm start` and the desktop checks find an Electron the user points at with
// ELECTRON_OVERRIDE_DIST_PATH, whether or not the electron package ever downloaded one.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { electronBinary, executableIn } from './electron-binary.mjs'

function fakeRoot(pathTxt?: string): string {
  const root = mkdtempSync(join(tmpdir(), 'cannonade-electron-bin-'))
  mkdirSync(join(root, 'node_modules', 'electron', 'dist'), { recursive: true })
  if (pathTxt !== undefined) writeFileSync(join(root, 'node_modules', 'electron', 'path.txt'), pathTxt)
  return root
}

function fakeDist(executable = executableIn()): string {
  const dist = mkdtempSync(join(tmpdir(), 'cannonade-electron-dist-'))
  mkdirSync(join(dist, executable, '..'), { recursive: true })
  writeFileSync(join(dist, executable), '')
  return dist
}

describe('electronBinary', () => {
  it('honours ELECTRON_OVERRIDE_DIST_PATH when the package never wrote path.txt', () => {
    const dist = fakeDist()
    expect(electronBinary(fakeRoot(), { ELECTRON_OVERRIDE_DIST_PATH: dist })).toBe(join(dist, executableIn()))
  })
  it('uses path.txt inside the override when there is one', () => {
    const dist = fakeDist('custom-electron')
    expect(electronBinary(fakeRoot('custom-electron'), { ELECTRON_OVERRIDE_DIST_PATH: dist })).toBe(
      join(dist, 'custom-electron'),
    )
  })
  it('finds the downloaded binary without an override', () => {
    const root = fakeRoot('electron')
    writeFileSync(join(root, 'node_modules', 'electron', 'dist', 'electron'), '')
    expect(electronBinary(root, {})).toBe(join(root, 'node_modules', 'electron', 'dist', 'electron'))
  })
  it('is null when nothing is there', () => {
    expect(electronBinary(fakeRoot(), {})).toBeNull()
    expect(
      electronBinary(fakeRoot(), { ELECTRON_OVERRIDE_DIST_PATH: mkdtempSync(join(tmpdir(), 'empty-')) }),
    ).toBeNull()
  })
  it('names the executable per platform', () => {
    expect(executableIn('linux')).toBe('electron')
    expect(executableIn('win32')).toBe('electron.exe')
    expect(executableIn('darwin')).toBe(join('Electron.app', 'Contents', 'MacOS', 'Electron'))
  })
})
