// GET /api/download?path=…&token=… (web mode): the file an export or report wrote, streamed to the
// browser as an attachment. Exports and reports answer with a path on the engine's machine, which
// the page cannot open itself; only files under <data dir>/exports and /reports are served
// (files.ts), anything else is a 403.
import { createReadStream } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { checkDownloadable, contentTypeOf } from '../api/files.ts'

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  })
  res.end(text)
}

/** RFC 6266 filename: ASCII fallback plus the UTF-8 form. */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

export async function serveDownload(
  dataDir: string | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD')
    plain(res, 405, 'use GET')
    return
  }
  if (!dataDir) {
    plain(res, 404, 'this server offers no downloads')
    return
  }
  const check = await checkDownloadable(dataDir, url.searchParams.get('path') ?? '')
  if (!check.ok) {
    plain(res, check.status, check.message)
    return
  }
  res.writeHead(200, {
    'content-type': contentTypeOf(check.name),
    'content-length': check.size,
    'content-disposition': disposition(check.name),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    // An HTML report opened from here must not run as the app's origin.
    'content-security-policy': "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'",
  })
  if (req.method === 'HEAD') {
    res.end()
    return
  }
  const stream = createReadStream(check.path)
  stream.on('error', () => res.destroy())
  stream.pipe(res)
}
