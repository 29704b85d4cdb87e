// The `cannonade` schema in a user's PostgreSQL: numbered migrations of its own, recorded in
// cannonade.schema_migrations, applied in one transaction under an advisory lock (two exports
// starting at once must not both create it). Nothing is created when everything is in place, so
// a role that may only write rows (no CREATE) can export into a schema an admin set up.
import type { ClientBase } from 'pg'
import { ApiError } from '../api/errors.ts'

export const PG_SCHEMA = 'cannonade'
// Any fixed 64-bit number: the lock that serializes schema migrations across exporters.
const MIGRATION_LOCK = 0x63616e6e6f6e

export interface PgMigration {
  version: number
  name: string
  sql: string
}

export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    name: '001_initial',
    sql: `
-- A run is identified by its origin (correlation prefix @ start time), not by its local id:
-- local ids of different machines collide, and exporting a run again replaces it.
CREATE TABLE cannonade.runs (
  id                 bigserial   PRIMARY KEY,
  origin             text        NOT NULL UNIQUE,
  local_run_id       bigint      NOT NULL,
  source_host        text        NOT NULL,
  name               text        NOT NULL,
  status             text        NOT NULL,
  config             jsonb       NOT NULL,
  phases             jsonb       NOT NULL,
  correlation_prefix text        NOT NULL,
  started_at         timestamptz NOT NULL,
  ended_at           timestamptz,
  error              text,
  tags               jsonb       NOT NULL,
  note               text        NOT NULL,
  generator          jsonb,
  thresholds         jsonb,
  exported_at        timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE cannonade.run_targets (
  run_id              bigint NOT NULL REFERENCES cannonade.runs (id) ON DELETE CASCADE,
  target_index        int    NOT NULL,
  round               int    NOT NULL,
  target              text   NOT NULL,
  url                 text   NOT NULL,
  summary             jsonb,
  histogram           text,
  corrected_histogram text,
  PRIMARY KEY (run_id, target_index, round)
);
CREATE TABLE cannonade.series (
  run_id        bigint NOT NULL REFERENCES cannonade.runs (id) ON DELETE CASCADE,
  target_index  int    NOT NULL,
  round         int    NOT NULL,
  t             int    NOT NULL,
  phase         int    NOT NULL,
  connections   int    NOT NULL,
  requests      int    NOT NULL,
  errors        int    NOT NULL,
  errors_json   jsonb  NOT NULL,
  status_json   jsonb  NOT NULL,
  bytes         bigint NOT NULL,
  mean          double precision NOT NULL,
  p50           bigint NOT NULL,
  p90           bigint NOT NULL,
  p95           bigint NOT NULL,
  p99           bigint NOT NULL,
  p999          bigint NOT NULL,
  max           bigint NOT NULL,
  generator_cpu double precision,
  PRIMARY KEY (run_id, target_index, round, t)
);
-- No foreign key on samples: a per-row check would slow COPY down; an export deletes a run's
-- samples explicitly in the same transaction, as the local store does.
CREATE TABLE cannonade.samples (
  run_id       bigint NOT NULL,
  seq          bigint NOT NULL,
  target_index int    NOT NULL,
  round        int    NOT NULL,
  phase        int    NOT NULL,
  start_us     bigint NOT NULL,
  latency_us   bigint NOT NULL,
  corrected_us bigint,
  status       int    NOT NULL,
  bytes        bigint NOT NULL,
  error        text   NOT NULL,
  app_us       bigint,
  db_us        bigint
);
CREATE INDEX samples_run_seq ON cannonade.samples (run_id, seq);
CREATE TABLE cannonade.resource_samples (
  run_id       bigint NOT NULL REFERENCES cannonade.runs (id) ON DELETE CASCADE,
  t            double precision NOT NULL,
  target       text NOT NULL,
  source       text NOT NULL,
  instance     text NOT NULL,
  cpu_percent  double precision,
  memory_bytes bigint,
  memory_limit bigint,
  cpu_limit    double precision,
  state        text
);
CREATE INDEX resource_samples_run ON cannonade.resource_samples (run_id, t);
CREATE TABLE cannonade.environment (
  run_id  bigint PRIMARY KEY REFERENCES cannonade.runs (id) ON DELETE CASCADE,
  host    text NOT NULL,
  cpu     text NOT NULL,
  cores   int  NOT NULL,
  os      text NOT NULL,
  node    text NOT NULL,
  app     text NOT NULL,
  details jsonb NOT NULL
);
-- Samples as a person reads them: correlation id, target and phase names.
CREATE VIEW cannonade.samples_v AS
  SELECT s.run_id, r.local_run_id, r.origin,
         r.correlation_prefix || '-' || lpad(s.seq::text, 10, '0') AS correlation_id,
         s.seq, rt.target, s.round, r.phases ->> s.phase AS phase, s.start_us, s.latency_us,
         s.corrected_us, s.status, s.bytes, s.error, s.app_us, s.db_us
  FROM cannonade.samples s
  JOIN cannonade.runs r ON r.id = s.run_id
  LEFT JOIN cannonade.run_targets rt
    ON rt.run_id = s.run_id AND rt.target_index = s.target_index AND rt.round = s.round;
`,
  },
  {
    version: 2,
    name: '002_scenario_steps',
    sql: `
-- The step of a scenario target each request belonged to (NULL for plain targets).
ALTER TABLE cannonade.samples ADD COLUMN step int;
`,
  },
  {
    version: 3,
    name: '003_resource_connections',
    sql: `
-- Database connections per state from the postgres monitor (NULL for other sources).
ALTER TABLE cannonade.resource_samples ADD COLUMN connections int;
`,
  },
  {
    version: 4,
    name: '004_figures',
    sql: `
-- The figures of every target and round as the app, the CLI and the report show them
-- (engine/metrics/figures.ts): sent = requests + in flight at the end; requests have an outcome;
-- answered = responses of any status; failed = every error kind but inflight; throughput =
-- responses per second of the window; latency only from answered requests (NULL without any).
CREATE VIEW cannonade.figures_v AS
  SELECT rt.run_id, r.local_run_id, r.origin, rt.target, rt.round,
         (rt.summary ->> 'seconds')::double precision AS seconds,
         (rt.summary ->> 'requests')::bigint + COALESCE((rt.summary -> 'errors' ->> 'inflight')::bigint, 0) AS sent,
         (rt.summary ->> 'requests')::bigint AS requests,
         (SELECT COALESCE(sum(value::bigint), 0) FROM jsonb_each_text(rt.summary -> 'statusClasses'))::bigint AS answered,
         (rt.summary ->> 'ok')::bigint AS ok,
         f.failed,
         COALESCE((rt.summary -> 'errors' ->> 'inflight')::bigint, 0) AS inflight,
         (rt.summary ->> 'throughput')::double precision AS throughput,
         f.failed::double precision / NULLIF((rt.summary ->> 'requests')::bigint, 0) AS error_rate,
         CASE WHEN l.answered THEN (rt.summary -> 'latency' ->> 'mean')::double precision END AS mean_us,
         CASE WHEN l.answered THEN (rt.summary -> 'latency' ->> 'stddev')::double precision END AS stddev_us,
         CASE WHEN l.answered THEN (rt.summary -> 'latency' ->> 'p50')::bigint END AS p50_us,
         CASE WHEN l.answered THEN (rt.summary -> 'latency' ->> 'p90')::bigint END AS p90_us,
         CASE WHEN l.answered THEN (rt.summary -> 'latency' ->> 'p95')::bigint END AS p95_us,
         CASE WHEN l.answered THEN (rt.summary -> 'latency' ->> 'p99')::bigint END AS p99_us,
         CASE WHEN l.answered THEN (rt.summary -> 'latency' ->> 'p999')::bigint END AS p999_us,
         CASE WHEN l.answered THEN (rt.summary -> 'latency' ->> 'max')::bigint END AS max_us
  FROM cannonade.run_targets rt
  JOIN cannonade.runs r ON r.id = rt.run_id
  CROSS JOIN LATERAL (
    SELECT COALESCE(sum(value::bigint), 0)::bigint AS failed
    FROM jsonb_each_text(rt.summary -> 'errors') WHERE key <> 'inflight'
  ) f
  CROSS JOIN LATERAL (
    SELECT COALESCE((rt.summary -> 'latency' ->> 'count')::bigint, 0) > 0 AS answered
  ) l
  WHERE rt.summary IS NOT NULL;
-- A request without a response has no latency: NULL, not the -1 the samples table stores.
CREATE OR REPLACE VIEW cannonade.samples_v AS
  SELECT s.run_id, r.local_run_id, r.origin,
         r.correlation_prefix || '-' || lpad(s.seq::text, 10, '0') AS correlation_id,
         s.seq, rt.target, s.round, r.phases ->> s.phase AS phase, s.start_us,
         CASE WHEN s.latency_us < 0 THEN NULL ELSE s.latency_us END AS latency_us,
         CASE WHEN s.corrected_us < 0 THEN NULL ELSE s.corrected_us END AS corrected_us,
         s.status, s.bytes, s.error, s.app_us, s.db_us
  FROM cannonade.samples s
  JOIN cannonade.runs r ON r.id = s.run_id
  LEFT JOIN cannonade.run_targets rt
    ON rt.run_id = s.run_id AND rt.target_index = s.target_index AND rt.round = s.round;
`,
  },
  {
    version: 5,
    name: '005_resource_metrics',
    sql: `
-- Named series of the prometheus monitor (heap_bytes, gc_pause_ratio, any PromQL) and their values
-- (NULL for other sources).
ALTER TABLE cannonade.resource_samples ADD COLUMN metric text;
ALTER TABLE cannonade.resource_samples ADD COLUMN value double precision;
`,
  },
]

/** Create or update the schema; returns the names of the migrations applied now. */
export async function ensurePgSchema(client: ClientBase): Promise<string[]> {
  const present = async (): Promise<number[] | null> => {
    const table = await client.query<{ t: string | null }>(
      `SELECT to_regclass('${PG_SCHEMA}.schema_migrations')::text AS t`,
    )
    if (table.rows[0]?.t == null) return null
    const rows = await client.query<{ version: number }>(`SELECT version FROM ${PG_SCHEMA}.schema_migrations`)
    return rows.rows.map((r) => r.version)
  }
  const newest = PG_MIGRATIONS.at(-1)?.version ?? 0
  const check = (done: number[]): boolean => {
    const known = Math.max(0, ...done)
    if (known > newest) {
      throw new ApiError(
        'conflict',
        `the "${PG_SCHEMA}" schema in this database is at version ${known}, newer than this Cannonade (${newest}); update Cannonade`,
      )
    }
    return PG_MIGRATIONS.every((m) => done.includes(m.version))
  }
  const before = await present()
  if (before && check(before)) return []

  const applied: string[] = []
  await client.query('BEGIN')
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    // Checked again under the lock: another exporter may have migrated meanwhile.
    const schema = await client.query(`SELECT 1 FROM pg_namespace WHERE nspname = '${PG_SCHEMA}'`)
    if (schema.rowCount === 0) await client.query(`CREATE SCHEMA ${PG_SCHEMA}`)
    let done = await present()
    if (done === null) {
      await client.query(`CREATE TABLE ${PG_SCHEMA}.schema_migrations (
        version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`)
      done = []
    }
    check(done)
    for (const m of PG_MIGRATIONS) {
      if (done.includes(m.version)) continue
      await client.query(m.sql)
      await client.query(`INSERT INTO ${PG_SCHEMA}.schema_migrations (version, name) VALUES ($1, $2)`, [
        m.version,
        m.name,
      ])
      applied.push(m.name)
    }
    await client.query('COMMIT')
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw err
  }
  return applied
}
