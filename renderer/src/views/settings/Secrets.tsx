// Secrets (database and Cloud Foundry passwords, tokens). In the desktop app they are encrypted
// with the OS keychain (Electron safeStorage) and handed to the engine as environment variables;
// run configs only name them. In web mode the page never sees them: they come from the
// environment of `cannonade serve`.
import { useState } from 'react'
import type { DesktopBridge } from '#engine/api/transport/bridge.ts'
import { SECRET_NAMES } from '#engine/config/secrets.ts'
import { useAsync } from '../../api/context.tsx'
import { Button, Card } from '../../ui/Primitives.tsx'

const DESCRIPTION: Record<(typeof SECRET_NAMES)[number], string> = {
  PGPASSWORD: 'PostgreSQL export password',
  CF_PASSWORD: 'Cloud Foundry password (password grant)',
  CF_REFRESH_TOKEN: 'Cloud Foundry refresh token',
  CF_TOKEN: 'Cloud Foundry access token (`cf oauth-token`)',
  PROMETHEUS_TOKEN: 'Prometheus bearer token (a monitor with tokenEnv: PROMETHEUS_TOKEN)',
}

function DesktopSecrets({ desktop }: { desktop: DesktopBridge }) {
  const available = useAsync(() => desktop.secrets.available(), [desktop])
  const names = useAsync(() => desktop.secrets.list(), [desktop])
  const [values, setValues] = useState<Record<string, string>>({})
  const [error, setError] = useState<string | null>(null)
  const handleSave = async (name: string, remove: boolean) => {
    setError(null)
    const result = remove
      ? await desktop.secrets.delete(name)
      : await desktop.secrets.set(name, values[name] ?? '')
    if (!result.ok) setError(result.error.message)
    setValues((v) => ({ ...v, [name]: '' }))
    names.reload()
  }
  if (available.data === false) {
    return (
      <p className="field-error">
        This system offers no encrypted storage (no keychain), so Cannonade will not store secrets. Set them
        as environment variables before starting the app.
      </p>
    )
  }
  return (
    <>
      {SECRET_NAMES.map((name) => {
        const isSet = names.data?.includes(name) ?? false
        return (
          <div className="secret-row" key={name}>
            <label>
              <code>{name}</code> <span className="muted">{DESCRIPTION[name]}</span>
              <input
                type="password"
                autoComplete="off"
                value={values[name] ?? ''}
                placeholder={isSet ? '•••••• (set)' : 'not set'}
                onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
                data-testid={`secret-${name}`}
              />
            </label>
            <Button disabled={!values[name]} onClick={() => void handleSave(name, false)}>
              Save
            </Button>
            <Button variant="ghost" disabled={!isSet} onClick={() => void handleSave(name, true)}>
              Forget
            </Button>
          </div>
        )
      })}
      {error ? <div className="field-error">{error}</div> : null}
    </>
  )
}

export function Secrets({ mode, desktop }: { mode: 'web' | 'desktop'; desktop: DesktopBridge | null }) {
  return (
    <Card title="Secrets" testId="settings-secrets">
      {mode === 'desktop' && desktop ? (
        <DesktopSecrets desktop={desktop} />
      ) : (
        <p>
          In web mode secrets are read from the environment of <code>cannonade serve</code>:{' '}
          {SECRET_NAMES.map((n) => (
            <code key={n}>{n} </code>
          ))}
          . Run configs name them (for example <code>passwordEnv: CF_PASSWORD</code>); they are never stored
          in configs or settings.
        </p>
      )}
    </Card>
  )
}
