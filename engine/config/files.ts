// Files named from outside the program (a config's tokenFile, a kubeconfig and the files it names,
// an import's source, an agent's ledger): read only when they are what they claim to be. Every one
// is opened without blocking (O_NONBLOCK: opening a FIFO for reading would wait for a writer for
// ever), checked to be a regular file (a device such as /dev/zero never ends) of at most the bytes
// its reader takes, and read no further than that (a file that grows meanwhile is refused too).
// A secret file a config names must also lie in the folder the user set aside for secrets
// (settings.secretsDir or CANNONADE_SECRETS_DIR): a shared config is data, not the authority to
// send any file of this machine to the server it names.
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs'
import { isAbsolute, sep } from 'node:path'

/** Why a named file is not read, in words that follow its path. */
export class FileRefused extends Error {
  readonly path: string
  readonly reason: 'missing' | 'not-file' | 'too-large' | 'unreadable' | 'outside'
  constructor(path: string, reason: FileRefused['reason'], words: string) {
    super(`${path} ${words}`)
    this.name = 'FileRefused'
    this.path = path
    this.reason = reason
  }
}

/** A size in words: 100 MB, 1.0 GB, 16 KB. */
export const sizeWords = (bytes: number): string =>
  bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(1)} GB`
    : bytes >= 1024 ** 2
      ? `${Math.ceil(bytes / 1024 ** 2)} MB`
      : `${Math.ceil(bytes / 1024)} KB`

/** What a stat says a path is, for a refusal: "a FIFO", "a folder", "a device". */
export function kindWords(st: Stats): string {
  if (st.isDirectory()) return 'a folder'
  if (st.isFIFO()) return 'a FIFO (a pipe)'
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device'
  if (st.isSocket()) return 'a socket'
  return 'not a regular file'
}

// O_NONBLOCK only matters for the open of a FIFO or device; a regular file reads as usual.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0)

/**
 * The open file descriptor of a regular file of at most `maxBytes`, and its size; the caller
 * closes it. Never blocks on a FIFO or a device.
 */
export function openRegularFile(path: string, maxBytes: number, flags = 0): { fd: number; size: number } {
  let fd: number
  try {
    fd = openSync(path, OPEN_FLAGS | flags)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err)
    if (code === 'ENOENT') throw new FileRefused(path, 'missing', 'does not exist')
    if (code === 'ELOOP') throw new FileRefused(path, 'not-file', 'is a symbolic link')
    if (code === 'ENXIO')
      throw new FileRefused(path, 'not-file', 'is not a regular file (a socket or device)')
    throw new FileRefused(path, 'unreadable', `cannot be read (${code})`)
  }
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) throw new FileRefused(path, 'not-file', `is ${kindWords(st)}, not a regular file`)
    if (st.size > maxBytes)
      throw new FileRefused(
        path,
        'too-large',
        `is ${sizeWords(st.size)}, more than the ${sizeWords(maxBytes)} it may be`,
      )
    return { fd, size: st.size }
  } catch (err) {
    closeSync(fd)
    throw err
  }
}

/** Read `fd` to its end, refusing to hold more than `maxBytes`. */
function readAll(fd: number, path: string, size: number, maxBytes: number): Buffer {
  let buf = Buffer.alloc(Math.min(maxBytes, size) + 1)
  let got = 0
  for (;;) {
    if (got === buf.length) {
      if (got > maxBytes)
        throw new FileRefused(path, 'too-large', `grew past the ${sizeWords(maxBytes)} it may be`)
      const bigger = Buffer.alloc(Math.min(maxBytes + 1, buf.length * 2))
      buf.copy(bigger)
      buf = bigger
    }
    let n: number
    try {
      n = readSync(fd, buf, got, buf.length - got, null)
    } catch (err) {
      throw new FileRefused(
        path,
        'unreadable',
        `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      )
    }
    if (n === 0) return buf.subarray(0, got)
    got += n
  }
}

/** A regular file's bytes, at most `maxBytes` (FileRefused otherwise). */
export function readRegularFile(path: string, maxBytes: number): Buffer {
  const { fd, size } = openRegularFile(path, maxBytes)
  try {
    return readAll(fd, path, size, maxBytes)
  } finally {
    closeSync(fd)
  }
}

/** Where the user keeps the files a config may name as secrets, or undefined when none is set. */
export function secretsFolder(
  setting: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const dir = setting || env.CANNONADE_SECRETS_DIR
  return dir && isAbsolute(dir) ? dir : undefined
}

/**
 * A secret file a config names (`field`: its place, for messages), read only when it lies in the
 * secrets folder, symbolic links resolved (a link in the folder to ~/.ssh/id_rsa is outside it).
 */
export function readSecretFile(
  path: string,
  folder: string | undefined,
  maxBytes: number,
  field: string,
): Buffer {
  if (!folder)
    throw new FileRefused(
      path,
      'outside',
      `is not read: ${field} names a file, and files are read only from the secrets folder you set (settings: secretsDir, or CANNONADE_SECRETS_DIR); no folder is set`,
    )
  let real: string
  let root: string
  try {
    root = realpathSync(folder)
  } catch {
    throw new FileRefused(path, 'outside', `is not read: the secrets folder ${folder} does not exist`)
  }
  try {
    real = realpathSync(path)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    throw new FileRefused(
      path,
      code === 'ENOENT' ? 'missing' : 'unreadable',
      code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`,
    )
  }
  if (real !== root && !real.startsWith(root.endsWith(sep) ? root : root + sep))
    throw new FileRefused(
      path,
      'outside',
      `is not read: it is outside the secrets folder ${folder} (${field} may name only files in it)`,
    )
  // O_NOFOLLOW: the resolved path itself, not a link put there since.
  const { fd, size } = openRegularFile(real, maxBytes, constants.O_NOFOLLOW ?? 0)
  try {
    return readAll(fd, path, size, maxBytes)
  } finally {
    closeSync(fd)
  }
}
