// The environment the engine's utility process starts with: what the engine and the tools it runs
// need (PATH for docker, taskset, java; HOME and XDG dirs for docker's config; locale; temp dirs;
// Windows' system variables; CANNONADE_* and non-secret PG* settings), and nothing else. Secrets
// never travel this way: main sends them by message (engine-process.ts), and the engine hands them
// only to what uses them (a run's monitors, a PostgreSQL connection), so the runner processes and
// native stacks it starts do not inherit them. Pure: electron/engine-env.test.ts checks it.
import { SECRET_NAMES, type SecretName } from '../engine/config/secrets.ts'
import { secretEnv } from '../engine/config/secret-vars.ts'

const NAMES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  // docker and compose: where the daemon is and how to reach it
  'DOCKER_HOST',
  'DOCKER_CONTEXT',
  'DOCKER_CONFIG',
  'DOCKER_CERT_PATH',
  'DOCKER_TLS_VERIFY',
  'COMPOSE_PROJECT_NAME',
  'JAVA_HOME',
  // Windows
  'SystemRoot',
  'SYSTEMROOT',
  'windir',
  'ComSpec',
  'PATHEXT',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
  'ProgramData',
  'ProgramFiles',
  'ProgramFiles(x86)',
  'HOMEDRIVE',
  'HOMEPATH',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
])

const PREFIXES = ['LC_', 'XDG_', 'CANNONADE_', 'PG']

/** Names that look like they hold a secret, whatever their prefix (PGPASSWORD, CANNONADE_API_TOKEN …). */
const SECRET_LOOKING = /PASS|TOKEN|SECRET|CREDENTIAL|PRIVATE|(^|_)KEY($|_)|AUTH/i

export function isSecretName(name: string): boolean {
  return (SECRET_NAMES as readonly string[]).includes(name) || SECRET_LOOKING.test(name)
}

/** The engine process's environment, from main's. */
export function engineEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isSecretName(name)) continue
    if (NAMES.has(name) || PREFIXES.some((p) => name.startsWith(p))) out[name] = value
  }
  return out
}

/**
 * Secrets the user gave main through its own environment (the app started from a shell with
 * PGPASSWORD set, or a CANNONADE_SECRET_… value for an imported scenario's `${variable}`,
 * engine/config/secret-vars.ts): sent to the engine by message like stored ones, which take precedence.
 */
export function secretsFromEnv(
  env: NodeJS.ProcessEnv,
): Partial<Record<SecretName, string>> & Record<string, string> {
  const out: Record<string, string> = secretEnv(env)
  for (const name of SECRET_NAMES) {
    const value = env[name]
    if (value) out[name] = value
  }
  return out
}
