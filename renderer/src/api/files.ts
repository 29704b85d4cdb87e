// Files the engine wrote (exports, reports) answer with a path on the engine's machine. In web
// mode the page may be on another machine, so it downloads them through the server's
// /api/download route (which serves only the data folder's exports/ and reports/); in the desktop
// app main opens them with the system's application, or saves a copy through a save dialog, after
// the same check.
import type { DesktopBridge } from '#engine/api/transport/bridge.ts'

export interface FileAccess {
  /** Web mode: a URL that downloads the file (it carries the page's token, like the event socket). */
  downloadUrl: ((path: string) => string) | null
  /** Desktop: open with the default application / show in the file manager. */
  open: ((path: string) => Promise<void>) | null
  reveal: ((path: string) => Promise<void>) | null
  /** Desktop: a save dialog, then a copy there; the copy's path, or null when cancelled. */
  saveAs: ((path: string) => Promise<string | null>) | null
}

export function webFiles(token: string | null): FileAccess {
  return {
    downloadUrl: (path) =>
      `/api/download?path=${encodeURIComponent(path)}&token=${encodeURIComponent(token ?? '')}`,
    open: null,
    reveal: null,
    saveAs: null,
  }
}

export function desktopFiles(desktop: DesktopBridge | null): FileAccess {
  // An older preload without files: say nothing can be opened rather than fail on click.
  const files = desktop?.files
  if (!files) return { downloadUrl: null, open: null, reveal: null, saveAs: null }
  const unwrap = async <T>(
    call: Promise<{ ok: true; result: T } | { ok: false; error: { message: string } }>,
  ) => {
    const r = await call
    if (!r.ok) throw new Error(r.error.message)
    return r.result
  }
  return {
    downloadUrl: null,
    open: async (path) => void (await unwrap(files.open(path))),
    reveal: async (path) => void (await unwrap(files.reveal(path))),
    saveAs: files.saveAs ? async (path) => (await unwrap(files.saveAs(path)))?.path ?? null : null,
  }
}

/** The file's name, for labels (paths may come from Windows or POSIX engines). */
export function fileName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path
}
