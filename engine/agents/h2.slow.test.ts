// Load agents over HTTP/2 (issue 31: "every request keeps what HTTP/1.1 requests have … agents"):
// two local `cannonade agent` processes load one HTTP/2 server, h2c and h2 over TLS, with several
// streams per connection. The merged run's requests and in-flight requests are every stream the
// server received, each one a samples row with an id unique across the agents.
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { parseRunConfig } from '../config/load.ts'
import { initHdr } from '../metrics/hdr.ts'
import { openDb } from '../db/db.ts'
import { startH2Target, type H2Target } from '../testing/h2-targets.ts'
import { tempDbPath } from '../testing/run-config.ts'
import { launchRun } from './launch-run.ts'

let target: H2Target | null = null
beforeAll(async () => {
  await initHdr()
})
afterEach(async () => {
  await target?.close()
  target = null
})

describe('two local agents over HTTP/2', () => {
  for (const protocol of ['h2c', 'h2'] as const) {
    it(`${protocol}, 4 streams a connection: the merged run is every stream the server received, one row each`, async () => {
      target = await startH2Target({ tls: protocol === 'h2' })
      const config = parseRunConfig({
        version: 1,
        name: `agents over ${protocol}`,
        targets: [
          {
            name: 't',
            url: `${target.url}/x`,
            protocol,
            streams: 4,
            insecure: protocol === 'h2' || undefined,
          },
        ],
        load: { connections: 2, duration: 2 },
        cooldownSeconds: 0,
        agents: { count: 2, raw: 'upload' },
      })
      const dbPath = tempDbPath()
      const db = openDb(dbPath)
      const handle = await launchRun(db, dbPath, config, {})
      const summary = await handle.done
      await handle.stored
      expect({ status: summary.status, error: summary.error }).toMatchObject({ status: 'done' })
      expect(summary.distribution?.perAgent.map((a) => a.state)).toEqual(['done', 'done'])
      const [merged] = summary.results
      const inflight = merged!.errors.inflight ?? 0
      expect(merged!.requests).toBeGreaterThan(100)
      // Nothing failed, and each stream the server saw is a request or one still in flight.
      expect(Object.entries(merged!.errors).filter(([k, n]) => k !== 'inflight' && n > 0)).toEqual([])
      expect(merged!.requests + inflight).toBe(target.received)
      // Two connections split over two agents: one session each, none reopened, 4 streams at most
      // at once on it.
      expect(target.sessions).toBe(2)
      expect(target.maxConcurrent).toBeLessThanOrEqual(4)
      expect(target.maxConcurrent).toBeGreaterThan(1)
      const seqs = db
        .prepare('SELECT seq FROM samples WHERE run_id = ?')
        .pluck()
        .all(summary.runId) as number[]
      expect(seqs.length).toBe(target.received)
      expect(new Set(seqs).size).toBe(seqs.length)
      // Agent i numbers its requests i, i + 2, …: both agents' requests are there.
      expect(new Set(seqs.map((s) => s % 2))).toEqual(new Set([0, 1]))
      db.close()
    })
  }
})
