// Where the Electron executable is, if there is one. Used by `npm start` and the desktop e2e checks.
// Not require('electron'): that tries to download the binary, which offline machines cannot.
//   1. ELECTRON_OVERRIDE_DIST_PATH (an unpacked Electron, as the electron package itself honours
//      it): its executable by this platform's name, whether or not node_modules/electron/path.txt
//      exists (it is written only by a successful download).
//   2. node_modules/electron/dist/<path.txt>, the binary `npm ci` downloaded.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The executable's path inside an unpacked Electron distribution, per platform. */
export function executableIn(platform = process.platform) {
  if (platform === 'darwin') return join('Electron.app', 'Contents', 'MacOS', 'Electron')
  if (platform === 'win32') return 'electron.exe'
  return 'electron'
}

/**
 * @param {string} root the repository root
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string | null}
 */
export function electronBinary(root, env = process.env) {
  const dir = join(root, 'node_modules', 'electron')
  const pathFile = join(dir, 'path.txt')
  const rel = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : executableIn()
  const override = env.ELECTRON_OVERRIDE_DIST_PATH
  const full = override ? join(override, rel) : existsSync(pathFile) ? join(dir, 'dist', rel) : null
  return full && existsSync(full) ? full : null
}
