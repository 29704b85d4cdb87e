// A config file the user names is read only when it is one: a device that never ends, a folder or
// a file far past what a config may hold is bad input naming the path, before anything is read.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError } from './errors.ts'
import { loadRunConfigFile } from './load.ts'

const dir = mkdtempSync(join(tmpdir(), 'cannonade-load-file-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('loadRunConfigFile', () => {
  const huge = join(dir, 'huge.yaml')
  writeFileSync(huge, '')
  truncateSync(huge, 200 * 1024 * 1024) // sparse: nothing is written or read
  it.each<[string, string, RegExp]>([
    ['a device that never ends', '/dev/zero', /^\/dev\/zero is not a file: give the config file's path$/],
    ['a folder', dir, /is not a file: give the config file's path$/],
    [
      'a file of 200 MB',
      huge,
      /huge\.yaml is 200 MB, more than a config file may be \(64 MB\): is it the right file\?$/,
    ],
    ['a missing file', join(dir, 'nope.yaml'), /^config file not found: .*nope\.yaml$/],
  ])('refuses %s', (_name, path, message) => {
    let error: unknown
    try {
      loadRunConfigFile(path)
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toMatch(message)
  })

  it('reads a config file as before', () => {
    const file = join(dir, 'ok.yaml')
    writeFileSync(
      file,
      'version: 1\nname: ok\ntargets: [{ name: a, url: "http://127.0.0.1:1/" }]\nload: { connections: 1, duration: 1 }\n',
    )
    expect(loadRunConfigFile(file).name).toBe('ok')
  })
})
