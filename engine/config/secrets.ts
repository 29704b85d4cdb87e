// The environment variables the engine reads secrets from: the desktop app keeps them with the
// operating system's keychain and hands them to the engine by message (electron/engine-env.ts),
// web mode and the CLI read them from the environment, and a monitor spec may name one of them
// (or a variable named for Cannonade) where it needs a password, never the secret itself.
export const SECRET_NAMES = [
  'PGPASSWORD',
  'CF_PASSWORD',
  'CF_REFRESH_TOKEN',
  'CF_TOKEN',
  'PROMETHEUS_TOKEN',
] as const
export type SecretName = (typeof SECRET_NAMES)[number]
