// Where the Electron executable is, if installed. Read from electron's path.txt: require('electron')
// would try to download it, which these machines cannot. Used by `npm start` and the e2e smoke test.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** @param {string} root the repository root @returns {string | null} */
export function electronBinary(root) {
  const dir = join(root, 'node_modules', 'electron')
  const pathFile = join(dir, 'path.txt')
  if (!existsSync(pathFile)) return null
  const rel = readFileSync(pathFile, 'utf8').trim()
  const full = process.env.ELECTRON_OVERRIDE_DIST_PATH
    ? join(process.env.ELECTRON_OVERRIDE_DIST_PATH, rel)
    : join(dir, 'dist', rel)
  return existsSync(full) ? full : null
}
