// Which files the UI may fetch or open: only what the engine wrote for the user, i.e. files inside
// `<data dir>/exports/` and `<data dir>/reports/`. Both transports ask here: the web download route
// (the page and the engine may be on different machines) and Electron main (shell.openPath). The
// check resolves symlinks on both sides, so a link or `..` inside those folders cannot reach out,
// and neither can one of the folders itself being a link.
import { realpath, stat } from 'node:fs/promises'
import { basename, extname, isAbsolute, join, resolve, sep } from 'node:path'

export const DOWNLOAD_DIRS = ['exports', 'reports'] as const

export type FileCheck =
  { ok: true; path: string; name: string; size: number } | { ok: false; status: 403 | 404; message: string }

async function real(path: string): Promise<string | null> {
  try {
    return await realpath(path)
  } catch {
    return null
  }
}

/** Resolve `path` and accept it only if it is a regular file under one of the data dir's output folders. */
export async function checkDownloadable(dataDir: string, path: string): Promise<FileCheck> {
  const refuse: FileCheck = {
    ok: false,
    status: 403,
    message: 'only files in the exports and reports folders can be opened',
  }
  if (!path || !isAbsolute(path) || path.includes('\0')) return refuse
  const abs = resolve(path)
  // A root that is itself a link out of the data folder (exports -> /) is no root: it would serve
  // whatever it points at.
  const home = await real(dataDir)
  const roots: { dir: string; real: string }[] = []
  for (const d of DOWNLOAD_DIRS) {
    const r = await real(join(dataDir, d))
    if (r !== null && home !== null && r.startsWith(home + sep))
      roots.push({ dir: join(dataDir, d), real: r })
  }
  const resolved = await real(abs)
  if (resolved === null) {
    // Say "not found" only for paths that would have been allowed; anything else learns nothing.
    const lexical = roots.some((r) => abs.startsWith(r.dir + sep))
    return lexical ? { ok: false, status: 404, message: 'no such file (deleted?)' } : refuse
  }
  if (!roots.some((root) => resolved.startsWith(root.real + sep))) return refuse
  const info = await stat(resolved)
  if (!info.isFile()) return refuse
  return { ok: true, path: resolved, name: basename(resolved), size: info.size }
}

const TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.html': 'text/html; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
}

export function contentTypeOf(name: string): string {
  return TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream'
}
