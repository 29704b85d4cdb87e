// Issue 20, item 8: a credential in a target URL's query (`?api_key=`, `token=`, `sig=`…) is masked
// wherever a URL leaves the machine (exports, reports, PostgreSQL: the `shared` scope), as a
// secret header value is; the local database keeps it, so "run again" still sends it.
import { describe, expect, it } from 'vitest'
import { openDb } from '../db/db.ts'
import { runTargetRows } from '../store/export-read.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { redactConfigJson, redactUrl } from './redact.ts'

const SECRET = 's3cr3tvalue'
const PARAMS = [
  'api_key',
  'apikey',
  'api-key',
  'API_KEY',
  'token',
  'access_token',
  'refresh_token',
  'auth',
  'sig',
  'signature',
  'X-Amz-Signature',
  'X-Amz-Credential',
  'X-Amz-Security-Token',
  'password',
  'passwd',
  'pwd',
  'secret',
  'client_secret',
  'key',
  'session',
  'sessionid',
  'code',
]

describe(`query credentials (hostile cases tried: ${PARAMS.length * 2})`, () => {
  it.each(PARAMS)('masks ?%s= in the shared scope, keeps the other parameters', (name) => {
    const url = `http://127.0.0.1:8080/ads?page=2&${encodeURIComponent(name)}=${SECRET}`
    const shared = redactUrl(url, 'shared')
    expect(shared).not.toContain(SECRET)
    expect(new URL(shared).searchParams.get('page')).toBe('2')
    const config = redactConfigJson({ targets: [{ name: 't', url }] }, 'shared') as {
      targets: { url: string }[]
    }
    expect(config.targets[0]!.url).toBe(shared)
  })

  it('keeps harmless parameters, and the stored scope keeps the query as it is', () => {
    const url = `http://127.0.0.1:8080/ads?page=2&size=10&sort=name&q=keyboard&token=${SECRET}`
    expect(redactUrl('http://127.0.0.1:8080/ads?page=2&size=10&sort=name&q=keyboard', 'shared')).toBe(
      'http://127.0.0.1:8080/ads?page=2&size=10&sort=name&q=keyboard',
    )
    expect(redactUrl(url)).toBe(url)
  })

  it.each(PARAMS)('an export reads the run targets with ?%s= masked', (name) => {
    const db = openDb(':memory:')
    try {
      const { runId } = insertFixtureRun(db, { samplesPerRound: 20 })
      db.prepare('UPDATE run_targets SET url = ? WHERE run_id = ?').run(
        `http://127.0.0.1:8081/ads?${encodeURIComponent(name)}=${SECRET}&page=1`,
        runId,
      )
      const rows = runTargetRows(db, runId)
      expect(rows.length).toBeGreaterThan(0)
      for (const r of rows) expect(r.url).not.toContain(SECRET)
    } finally {
      db.close()
    }
  })
})
