// Files named from outside (issue 29, items 3, 4 and 18): only a regular file of bounded size is
// read, opened without blocking (a FIFO with no writer, /dev/zero, a folder, a socket are refused
// at once, never waited on or read for ever), and a secret file a config names only from the
// secrets folder the user set, symbolic links resolved. Each hostile path is its own case.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FileRefused, readRegularFile, readSecretFile, secretsFolder } from './files.ts'

const base = mkdtempSync(join(tmpdir(), 'cannonade-files-'))
const secrets = join(base, 'secrets')
const outside = join(base, 'outside')
let socket: Server
beforeAll(async () => {
  mkdirSync(secrets)
  mkdirSync(outside)
  writeFileSync(join(secrets, 'token'), 'abc.def\n')
  writeFileSync(join(outside, 'vault-token'), 'hvs.SECRET\n')
  execFileSync('mkfifo', [join(secrets, 'fifo')])
  execFileSync('mkfifo', [join(outside, 'fifo')])
  writeFileSync(join(secrets, 'big'), '')
  truncateSync(join(secrets, 'big'), 200 * 1024 * 1024) // sparse: no disk used
  mkdirSync(join(secrets, 'folder'))
  symlinkSync(join(outside, 'vault-token'), join(secrets, 'link-out'))
  symlinkSync('/dev/zero', join(secrets, 'link-zero'))
  symlinkSync(join(secrets, 'token'), join(secrets, 'link-in'))
  symlinkSync(join(secrets, 'nowhere'), join(secrets, 'dangling'))
  socket = createServer()
  await new Promise<void>((r) => socket.listen(join(secrets, 'sock'), r))
})
afterAll(async () => {
  await new Promise<void>((r) => socket.close(() => r()))
  rmSync(base, { recursive: true, force: true })
})

const refused = (fn: () => unknown): FileRefused => {
  try {
    fn()
  } catch (e) {
    if (e instanceof FileRefused) return e
    throw e
  }
  throw new Error('it was read')
}

describe('a file named from outside is read only when it is a regular file of bounded size', () => {
  const cases: [string, () => string, FileRefused['reason'], RegExp][] = [
    [
      'a FIFO with no writer',
      () => join(secrets, 'fifo'),
      'not-file',
      /is a FIFO \(a pipe\), not a regular file$/,
    ],
    ['/dev/zero', () => '/dev/zero', 'not-file', /is a device, not a regular file$/],
    ['/dev/urandom', () => '/dev/urandom', 'not-file', /is a device/],
    ['/dev/tty-like /dev/null', () => '/dev/null', 'not-file', /is a device/],
    ['/dev/stdin', () => '/dev/stdin', 'not-file', /not a regular file|is a FIFO|is a device|cannot be read/],
    ['a folder', () => join(secrets, 'folder'), 'not-file', /is a folder, not a regular file$/],
    [
      '/proc/self/mem (a file that fails to read)',
      () => '/proc/self/mem',
      'unreadable',
      /cannot be read \(EIO\)/,
    ],
    ['a unix socket', () => join(secrets, 'sock'), 'not-file', /not a regular file/],
    ['a 200 MB file', () => join(secrets, 'big'), 'too-large', /is 200 MB, more than the 16 KB it may be$/],
    ['a missing file', () => join(secrets, 'none'), 'missing', /does not exist$/],
    ['a link to /dev/zero', () => join(secrets, 'link-zero'), 'not-file', /is a device/],
    ['a dangling link', () => join(secrets, 'dangling'), 'missing', /does not exist$/],
  ]
  for (const [what, path, reason, words] of cases)
    it(`refuses ${what} at once`, () => {
      const e = refused(() => readRegularFile(path(), 16 * 1024))
      expect(e.reason).toBe(reason)
      expect(e.message).toMatch(words)
    })

  it('reads a regular file (and one reached through a link) whole', () => {
    expect(readRegularFile(join(secrets, 'token'), 16).toString()).toBe('abc.def\n')
    expect(readRegularFile(join(secrets, 'link-in'), 16).toString()).toBe('abc.def\n')
  })
})

describe('a secret file a config names is read only from the secrets folder', () => {
  const read = (path: string, folder: string | undefined) =>
    readSecretFile(path, folder, 16 * 1024, 'monitor.tokenFile')
  const cases: [string, () => string, string | undefined, FileRefused['reason'], RegExp][] = [
    ['no folder set', () => join(secrets, 'token'), undefined, 'outside', /no folder is set/],
    [
      '~/.vault-token-like outside it',
      () => join(outside, 'vault-token'),
      secrets,
      'outside',
      /outside the secrets folder/,
    ],
    [
      'a link in it to a file outside',
      () => join(secrets, 'link-out'),
      secrets,
      'outside',
      /outside the secrets folder/,
    ],
    ['../ out of it', () => join(secrets, '..', 'outside', 'vault-token'), secrets, 'outside', /outside/],
    [
      'a folder next to it with its name as prefix',
      () => join(`${secrets}-x`, 't'),
      secrets,
      'missing',
      /does not exist/,
    ],
    ['a FIFO outside it', () => join(outside, 'fifo'), secrets, 'outside', /outside/],
    ['a FIFO in it', () => join(secrets, 'fifo'), secrets, 'not-file', /is a FIFO/],
    ['/dev/zero with /dev as the folder', () => '/dev/zero', '/dev', 'not-file', /is a device/],
    ['/etc/passwd', () => '/etc/passwd', secrets, 'outside', /outside/],
    [
      'a folder that does not exist',
      () => join(secrets, 'token'),
      join(base, 'gone'),
      'outside',
      /does not exist/,
    ],
  ]
  for (const [what, path, folder, reason, words] of cases)
    it(`refuses ${what}`, () => {
      const e = refused(() => read(path(), folder))
      expect(e.reason).toBe(reason)
      expect(e.message).toMatch(words)
      expect(e.message).not.toContain('hvs.')
    })

  it('reads a file in the folder, and one linked inside it', () => {
    expect(read(join(secrets, 'token'), secrets).toString()).toBe('abc.def\n')
    expect(read(join(secrets, 'link-in'), secrets).toString()).toBe('abc.def\n')
  })

  it('the folder is the setting, else CANNONADE_SECRETS_DIR; a relative one is none', () => {
    expect(secretsFolder('/a', { CANNONADE_SECRETS_DIR: '/b' })).toBe('/a')
    expect(secretsFolder(undefined, { CANNONADE_SECRETS_DIR: '/b' })).toBe('/b')
    expect(secretsFolder(undefined, { CANNONADE_SECRETS_DIR: 'rel' })).toBeUndefined()
    expect(secretsFolder(undefined, {})).toBeUndefined()
  })
})
