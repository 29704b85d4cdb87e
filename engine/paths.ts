// Where Cannonade keeps its data. The CLI and the desktop app must agree (README.md: `--db`
// defaults to the database the desktop app shows), so this mirrors Electron's userData folder for
// an app named "Cannonade" and electron/main.ts points app.setPath('userData') here.
import { homedir, platform } from 'node:os'
import { join } from 'node:path'

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
