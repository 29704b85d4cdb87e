// What a child process inherits from ours. The engine's environment may hold secrets (PGPASSWORD,
// CF_PASSWORD, a CANNONADE_PG_URL with a password, a cloud token); a process that does not need
// them (the runner, a native target server) gets the variables a program needs to run and find
// its tools, and nothing else: a crash dump, a debug endpoint or a target's own logging of its
// environment then has nothing to leak.

/** Locale, paths, temp folders, the OS's own (Windows needs SystemRoot to start anything). */
const PASS = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  // TLS trust for https targets (a private CA).
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  // Java native stacks and their build.
  'JAVA_HOME',
  'JAVA_TOOL_OPTIONS',
  'MAVEN_OPTS',
  'MAVEN_HOME',
  'M2_HOME',
  // A local PostgreSQL's tools (engine/stacks/postgres.ts).
  'PG_BIN',
  'PG_OS_USER',
  // Windows.
  'SystemRoot',
  'SYSTEMROOT',
  'windir',
  'ComSpec',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'ProgramData',
] as const

/** Our environment, reduced to what any child needs, plus `extra` (which may name its own secrets). */
export function childEnv(
  extra: Readonly<Record<string, string | undefined>> = {},
  from: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(from)) {
    if (v !== undefined && ((PASS as readonly string[]).includes(k) || k.startsWith('LC_'))) env[k] = v
  }
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v
  return env
}
