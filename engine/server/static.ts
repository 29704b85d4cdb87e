// Serving the built renderer (vite build output). Single-page app: unknown paths without a file
// extension get index.html; hashed assets are cached for good, index.html never.
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'
import { CSP } from '../api/csp.ts'

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
}

function send(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

async function fileAt(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Cannonade</title>
<p>The web UI is not built yet. Run <code>npx vite build</code> (or <code>npm run build</code>) and reload.</p>`

export async function serveStatic(
  root: string,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD')
    send(res, 405, 'method not allowed')
    return
  }
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    send(res, 400, 'bad path')
    return
  }
  const base = normalize(root + sep)
  let file = normalize(join(base, decoded))
  if (!file.startsWith(base)) {
    send(res, 403, 'forbidden')
    return
  }
  if (decoded.endsWith('/') || !(await fileAt(file))) {
    // Client-side routes fall back to the app; a missing asset is a real 404.
    if (extname(decoded) !== '' && decoded !== '/') {
      send(res, 404, 'not found')
      return
    }
    file = join(base, 'index.html')
    if (!(await fileAt(file))) {
      send(res, 503, NOT_BUILT, 'text/html; charset=utf-8')
      return
    }
  }
  const ext = extname(file)
  const isHtml = ext === '.html'
  const info = await stat(file)
  res.writeHead(200, {
    'content-type': MIME[ext] ?? 'application/octet-stream',
    'content-length': info.size,
    'cache-control': isHtml
      ? 'no-store'
      : file.includes(`${sep}assets${sep}`)
        ? 'public, max-age=31536000, immutable'
        : 'no-cache',
    'x-content-type-options': 'nosniff',
    ...(isHtml
      ? { 'content-security-policy': CSP, 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' }
      : {}),
  })
  if (req.method === 'HEAD') {
    res.end()
    return
  }
  createReadStream(file).pipe(res)
}
