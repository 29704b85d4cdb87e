// The PostgreSQL export connection: the URL (never with its password), a Test button that asks
// the engine to connect and check it may create the cannonade schema (nothing is written), and, in
// the desktop app, a way to move a pasted password into the encrypted PGPASSWORD secret instead of
// the settings file.
import { useState } from 'react'
import type { DesktopBridge } from '#engine/api/transport/bridge.ts'
import { useAction, useApi } from '../../api/context.tsx'
import { Button, Card } from '../../ui/Primitives.tsx'
import { TextField } from '../../ui/Field.tsx'

export function checkPgUrl(url: string): string | undefined {
  if (url.trim() === '') return undefined
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return 'is not a URL; expected postgres://user@host:5432/database'
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:')
    return 'must start with postgres:// or postgresql://'
  if (u.password) return 'must not contain the password: keep it as the PGPASSWORD secret instead'
  return undefined
}

/** The URL without its password, and the password (decoded), when it had one. */
export function splitPassword(url: string): { url: string; password: string | null } {
  try {
    const u = new URL(url)
    if (!u.password) return { url, password: null }
    const password = decodeURIComponent(u.password)
    u.password = ''
    return { url: u.toString(), password }
  } catch {
    return { url, password: null }
  }
}

export function PgConnection({
  value,
  onChange,
  error,
  desktop,
}: {
  value: string
  onChange: (url: string) => void
  error: string | undefined
  desktop: DesktopBridge | null
}) {
  const api = useApi()
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null)
  const test = useAction(async () => {
    setResult(null)
    setResult(await api.exports.pgTest({ url: value.trim() }))
  })
  const moveSecret = useAction(async () => {
    if (!desktop) return
    const { url, password } = splitPassword(value)
    if (password === null) return
    const saved = await desktop.secrets.set('PGPASSWORD', password)
    if (!saved.ok) throw new Error(saved.error.message)
    onChange(url)
  })
  const hasPassword = splitPassword(value).password !== null
  return (
    <Card title="PostgreSQL export">
      <div className="url-row">
        <TextField
          className="grow"
          label="Connection URL"
          value={value}
          placeholder="postgres://cannonade@db.example.com:5432/results"
          onChange={(v) => {
            setResult(null)
            onChange(v)
          }}
          error={error}
          hint="Runs exported here keep their ids: exporting twice changes nothing. The password comes from the PGPASSWORD secret."
          testId="settings-pg-url"
        />
        <Button
          busy={test.busy}
          disabled={value.trim() === '' || error !== undefined}
          onClick={() => void test.run()}
          data-testid="settings-pg-test"
        >
          Test connection
        </Button>
      </div>
      {hasPassword ? (
        desktop ? (
          <p>
            <Button
              onClick={() => void moveSecret.run()}
              busy={moveSecret.busy}
              data-testid="settings-pg-move-password"
            >
              Keep the password as the encrypted PGPASSWORD secret
            </Button>{' '}
            {moveSecret.error ? <span className="field-error">{moveSecret.error}</span> : null}
          </p>
        ) : (
          <p className="muted">
            Remove the password from the URL and set <code>PGPASSWORD</code> in the environment of{' '}
            <code>cannonade serve</code>.
          </p>
        )
      ) : null}
      {result || test.error ? (
        <div
          className={result?.ok ? 'check-ok' : 'field-error'}
          role="status"
          data-testid="settings-pg-test-result"
          data-ok={result?.ok ? 'true' : 'false'}
        >
          {result ? `${result.ok ? '✓' : '✗'} ${result.message}` : `✗ ${test.error ?? ''}`}
        </div>
      ) : null}
    </Card>
  )
}
