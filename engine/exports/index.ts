// Exports of the run history: PostgreSQL, CSV, JSON (and its import), JUnit XML.
export { exportPg, type ExportProgress, type PgExportOptions } from './pg.ts'
export { maskUrl, parsePgUrl } from '../pg/errors.ts'
export { exportCsv, type CsvOptions } from './csv.ts'
export { exportStudyCsv } from './study-csv.ts'
export { exportJson, JSON_FORMAT, JSON_VERSION } from './json.ts'
export { importJson, type ImportResult } from './json-import.ts'
export { exportJunit, junitXml } from './junit.ts'
