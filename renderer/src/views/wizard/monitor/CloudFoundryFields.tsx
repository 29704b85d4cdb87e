// A Cloud Foundry monitor: the app (and space) on an API endpoint, and how to sign in. Secrets are
// named, never kept: their values come from Settings → Secrets or the engine's environment.
import { useApiEnv } from '../../../api/context.tsx'
import { CheckAt, SelectAt, TextAt } from '../fields.tsx'
import { child, type Part } from '../part.ts'
import type { MonitorDraft } from '../draft.ts'
import type { MonitorFieldsProps } from './types.ts'

/** The secret the chosen grant reads: a user and a password, a refresh token, or a pasted token. */
function SignIn({ cf, id }: { cf: Part<MonitorDraft['cf']>; id: string }) {
  const grant = cf.value.grant
  if (grant === 'password')
    return (
      <>
        <TextAt part={cf} k="username" label="User" error={cf.at('auth.username')} testId={`${id}-cf-user`} />
        <TextAt
          part={cf}
          k="passwordEnv"
          label="Password from secret"
          error={cf.at('auth.passwordEnv')}
          testId={`${id}-cf-password-env`}
        />
      </>
    )
  if (grant === 'refresh')
    return (
      <TextAt
        part={cf}
        k="refreshTokenEnv"
        label="Refresh token from secret"
        error={cf.at('auth.refreshTokenEnv')}
        testId={`${id}-cf-refresh-env`}
      />
    )
  return (
    <TextAt
      part={cf}
      k="tokenEnv"
      label="Token from secret"
      error={cf.at('auth.tokenEnv')}
      testId={`${id}-cf-token-env`}
    />
  )
}

export function CloudFoundryFields({ monitor, id }: MonitorFieldsProps) {
  const { mode } = useApiEnv()
  const cf = child(monitor, 'cf', '')
  return (
    <>
      <div className="grid-3">
        <TextAt
          part={cf}
          k="api"
          label="API endpoint"
          placeholder="https://api.cf.example.com"
          testId={`${id}-cf-api`}
        />
        <TextAt part={cf} k="app" label="App" testId={`${id}-cf-app`} />
        <TextAt part={cf} k="space" label="Space (optional)" testId={`${id}-cf-space`} />
      </div>
      <div className="grid-3">
        <SelectAt
          part={cf}
          k="grant"
          label="Sign in with"
          options={[
            { value: 'password', label: 'user and password' },
            { value: 'refresh', label: 'refresh token' },
            { value: 'token', label: 'pasted `cf oauth-token`' },
          ]}
          testId={`${id}-cf-grant`}
        />
        <SignIn cf={cf} id={id} />
      </div>
      <CheckAt part={cf} k="skipTlsVerify" label="Skip TLS verification" testId={`${id}-cf-skip-tls`} />
      <p className="muted">
        Secrets never go into the run config: it names them.{' '}
        {mode === 'desktop'
          ? 'Set their values in Settings → Secrets (kept encrypted by the OS).'
          : 'In web mode, export them in the environment of `cannonade serve`.'}
      </p>
    </>
  )
}
