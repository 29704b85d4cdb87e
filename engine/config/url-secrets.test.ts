// pgUrlParts reads a URL as pg does without importing pg-connection-string (the renderer checks
// settings with it, and that package brings Node's fs into the bundle): held here to the package's
// own parse, URL by URL, for every part but the TLS ones pg reads files for when it connects.
import { parse } from 'pg-connection-string'
import { describe, expect, it } from 'vitest'
import { pgUrlParts, urlSecret } from './url-secrets.ts'

const URLS = [
  'postgres://localhost/db',
  'postgresql://u@db.example:5433/cannonade',
  'postgres://u:secret@h:5432/db',
  'postgres://u:secret@h:5432:99/db',
  'postgres://u@h/db?password=hunter2',
  'postgres://u@h/db?sslpassword=x&application_name=c',
  'postgres://u@h/db?options=-c%20password%3Dx',
  'postgres://u@h/db?options=-c password=x',
  'postgres://u:p%40ss@h/db',
  'postgres://u:%zz@h/db',
  'postgres://@/db',
  'postgres://u:p@/db?host=/var/run/postgresql',
  'postgres://%2Fvar%2Frun%2Fpostgresql/db',
  'postgres://h/db?host=%2Ftmp',
  'postgres://[::1]:5432/db',
  'postgres://h/my%20db',
  'postgres://h/db?port=6543&user=x&password=y',
  'socket:/var/run/postgresql?db=c&encoding=utf8',
  'socket://u:p@/var/run/postgresql?db=c',
  '/var/run/postgresql db',
  'postgres://h:99999/db',
  'postgres://h/db#frag',
  'not a url at all',
  'http://[bad',
  'postgres://u:p@h/db?ssl=true',
]

/** pg's parse, less what it derives from TLS settings (`ssl`). */
function pgParse(value: string): Record<string, unknown> | null {
  try {
    const { ssl: _ssl, ...rest } = parse(value) as Record<string, unknown>
    return { ...rest }
  } catch {
    return null
  }
}

describe('pgUrlParts', () => {
  it.each(URLS)('reads %s as pg-connection-string does', (value) => {
    const ours = pgUrlParts(value)
    const { ssl: _ssl, ...rest } = ours ?? {}
    expect(ours === null ? null : { ...rest }).toEqual(pgParse(value))
  })

  it('reads no file a TLS parameter names (pg reads it when it connects)', () => {
    const value = 'postgres://u@h/db?sslcert=/nonexistent/cert.pem&sslkey=/dev/zero&sslrootcert=/etc/shadow'
    expect(() => parse(value)).toThrow()
    expect(pgUrlParts(value)).toMatchObject({ host: 'h', database: 'db', sslcert: '/nonexistent/cert.pem' })
    expect(urlSecret(value)).toBeNull()
    expect(urlSecret(`${value}&password=x`)).toBe('a password parameter (password=)')
  })
})
