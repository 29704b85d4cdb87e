// The engine host's `exports` and `reports` operations: files written into the data folder's
// exports/ and reports/ (named after the run, their path reported), PostgreSQL exports, and their
// progress on the bus.
import { createHash } from 'node:crypto'
import { dirname, join } from 'node:path'
import type { Api } from '../api/api.ts'
import { parseArgs } from '../api/schemas.ts'
import type { ExportProgressEvent, ReportProgressEvent } from '../api/types.ts'
import { exportCsv, exportJson, exportJunit, exportPg, exportStudyCsv } from '../exports/index.ts'
import { testPgConnection } from '../exports/pg-check.ts'
import { privateDir } from '../paths.ts'
import { reportsCreate } from '../report/index.ts'
import type { Db } from '../db/db.ts'
import { missingOf } from '../store/ledger-elsewhere.ts'
import type { HistoryStore } from '../store/history-store.ts'
import type { HostBus } from './bus.ts'

export interface OutputsDeps {
  db: Db
  dbPath: string
  history: HistoryStore
  bus: HostBus
  /** PGPASSWORD handed over as a secret, read at each use. */
  pgPassword: () => string | undefined
}

/**
 * The file name of a JSON export of `ids`: every id up to 6, else the first 6, how many more and a
 * hash of the whole list (two lists that share their first 6 ids get two files). Bounded, so 1,000
 * ids fit a file name (issue 20, item 3).
 */
export function runsFileName(ids: readonly number[]): string {
  const unique = [...new Set(ids)]
  if (unique.length <= 6) return `runs-${unique.join('-')}.json`
  const hash = createHash('sha256').update(unique.join(',')).digest('hex').slice(0, 10)
  return `runs-${unique.slice(0, 6).join('-')}-and-${unique.length - 6}-more-${hash}.json`
}

export function exportsApi(d: OutputsDeps): Api['exports'] {
  const { db, pgPassword } = d
  const { bus, subscribe } = d.bus
  const exportPath = (name: string) => {
    const dir = join(dirname(d.dbPath), 'exports')
    privateDir(dir)
    return join(dir, name)
  }
  return {
    async pg(runIds, o) {
      const [ids, { url }] = parseArgs('exports:pg', [runIds, o])
      const result = await exportPg(
        db,
        ids,
        url,
        (p) => bus.emit('export-progress', { type: 'export-progress', ...p } satisfies ExportProgressEvent),
        { password: pgPassword() },
      )
      // The archive holds what this database holds: runs whose raw rows are elsewhere say where.
      const missing = missingOf(db, result.runIds)
      return missing.length ? { ...result, missing } : result
    },
    async pgTest(o) {
      return testPgConnection(parseArgs('exports:pgTest', [o])[0].url, { password: pgPassword() })
    },
    onProgress: (cb) => subscribe('export-progress', cb),
    async csv(runId, o) {
      const [id, { kind }] = parseArgs('exports:csv', [runId, o])
      return exportCsv(db, id, { kind }, exportPath(`run-${id}-${kind}.csv`))
    },
    async json(runIds) {
      const [ids] = parseArgs('exports:json', [runIds])
      return exportJson(db, ids, exportPath(runsFileName(ids)))
    },
    async junit(runId) {
      const [id] = parseArgs('exports:junit', [runId])
      return exportJunit(db, id, exportPath(`run-${id}-thresholds.xml`))
    },
    async studyCsv(studyId) {
      const [id] = parseArgs('exports:studyCsv', [studyId])
      return exportStudyCsv(db, id, exportPath(`study-${id}.csv`))
    },
  }
}

export function reportsApi(d: OutputsDeps): Api['reports'] {
  const { bus, subscribe } = d.bus
  return {
    async create(runIds, o) {
      const [ids, parsed] = parseArgs('reports:create', [runIds, o])
      privateDir(join(dirname(d.dbPath), 'reports'))
      const format = parsed?.format ?? 'pdf'
      return reportsCreate(d.history, ids, {
        dir: join(dirname(d.dbPath), 'reports'),
        format,
        compare: parsed?.compare,
        onProgress: ({ stage, elapsedMs }) =>
          bus.emit('report-progress', {
            type: 'report-progress',
            runIds: ids,
            format,
            stage,
            elapsedMs,
          } satisfies ReportProgressEvent),
      })
    },
    onProgress: (cb) => subscribe('report-progress', cb),
  }
}
