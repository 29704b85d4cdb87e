// Where Cannonade keeps its data. The CLI and the desktop app must agree (README.md: `--db`
// defaults to the database the desktop app shows), so this mirrors Electron's userData folder for
// an app named "Cannonade" and electron/main.ts points app.setPath('userData') here.
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs'
import { homedir, platform } from 'node:os'
import { join, resolve } from 'node:path'

export const APP_NAME = 'Cannonade'

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CANNONADE_DATA_DIR) return env.CANNONADE_DATA_DIR
  const home = homedir()
  switch (platform()) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', APP_NAME)
    case 'win32':
      return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_NAME)
    default:
      return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), APP_NAME)
  }
}

export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), 'cannonade.db')
}

/**
 * The data folder and what Cannonade writes in it (database, WAL, settings, exports, reports) are
 * private: 0700 folders, 0600 files. Tightening only takes group and other bits away, so a file
 * the user made read-only stays read-only; a folder that is not ours alone (/tmp for `--db
 * /tmp/x.db`, a project folder) is left as it is: see privateDataDir.
 */
export const PRIVATE_FILE_MODE = 0o600
export const PRIVATE_DIR_MODE = 0o700

/** Take group and other permissions away from `path`; false when it is missing or not ours. */
export function makePrivate(path: string): boolean {
  try {
    const mode = statSync(path).mode & 0o7777
    if ((mode & 0o077) !== 0) chmodSync(path, mode & ~0o077)
    return true
  } catch {
    return false
  }
}

/** A folder Cannonade owns (exports/, reports/…): created 0700, tightened when it exists. */
export function privateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE })
  makePrivate(path)
}

/**
 * The folder of a database: created 0700 when it does not exist yet; an existing one is tightened
 * only when it is the default data folder (a folder the user named holds other things too).
 */
export function privateDataDir(dir: string, env: NodeJS.ProcessEnv = process.env): void {
  if (!existsSync(dir)) privateDir(dir)
  else if (resolve(dir) === resolve(dataDir(env))) makePrivate(dir)
}
