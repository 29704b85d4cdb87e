// A throwaway self-signed certificate for https test targets (openssl, valid for a day). It names
// 127.0.0.1 as a subjectAltName, so a client that trusts it as its CA verifies the server too. The
// key and certificate are returned as PEM text; the files openssl wrote are removed.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-tls-'))
  try {
    const [key, cert] = [join(dir, 'k.pem'), join(dir, 'c.pem')]
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    )
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
