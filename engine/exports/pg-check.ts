// The settings' "Test connection" button: connect, and say whether an export could create its
// schema, without writing anything. The password is never echoed.
import { parsePgUrl } from '../pg/errors.ts'
import { PgSession } from '../pg/session.ts'

export async function testPgConnection(
  url: string,
  opts: { timeoutMs?: number; password?: string } = {},
): Promise<{ ok: boolean; message: string }> {
  const target = parsePgUrl(url)
  const timeoutMs = opts.timeoutMs ?? 5000
  const session = new PgSession(url, target, {
    connectTimeoutMs: timeoutMs,
    idleMs: timeoutMs,
    ...(opts.password !== undefined ? { password: opts.password } : {}),
  })
  try {
    await session.connect()
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) }
  }
  try {
    const r = await session.query<{ version: string; can_create: boolean; has_schema: boolean }>(
      'testing the connection',
      `SELECT current_setting('server_version') AS version,
              has_database_privilege(current_user, current_database(), 'CREATE') AS can_create,
              EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'cannonade') AS has_schema`,
    )
    const row = r.rows[0]!
    const where = `${target.user}@${target.host}:${target.port}/${target.database} (PostgreSQL ${row.version})`
    if (row.has_schema) return { ok: true, message: `connected to ${where}; the cannonade schema exists` }
    if (row.can_create)
      return {
        ok: true,
        message: `connected to ${where}; the cannonade schema will be created on the first export`,
      }
    return {
      ok: false,
      message: `connected to ${where}, but ${target.user} may not create the cannonade schema there (needs CREATE on the database)`,
    }
  } catch (err) {
    return { ok: false, message: session.describe(err).message }
  } finally {
    await session.end()
  }
}
