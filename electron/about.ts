// Help → About Cannonade: the app's version and the versions it runs on (Electron, Chromium,
// Node.js, V8), the data folder and the log file; menu.ts shows it in a message box with a button
// to copy it for a bug report, the same box on every platform (macOS's native about panel cannot
// show the folders). Pure: electron/about.test.ts.

export interface AboutInfo {
  name: string
  version: string
  versions: Partial<Record<'electron' | 'chrome' | 'node' | 'v8', string>>
  platform: string
  arch: string
  dataDir: string
  logFile: string
}

/** The text of the About box (pure: electron/about.test.ts). */
export function aboutText(info: AboutInfo): { message: string; detail: string } {
  const v = (name: keyof AboutInfo['versions']) => info.versions[name] ?? 'unknown'
  return {
    message: `${info.name} ${info.version}`,
    detail: [
      `Electron ${v('electron')}`,
      `Chromium ${v('chrome')}`,
      `Node.js ${v('node')}`,
      `V8 ${v('v8')}`,
      `OS ${info.platform} ${info.arch}`,
      '',
      `Data folder: ${info.dataDir}`,
      `Log file: ${info.logFile}`,
    ].join('\n'),
  }
}
