// The PostgreSQL coordination store's tables (schema `cannonade_agents`), created by the
// coordinator when it opens a run; agents only read and write rows. Times are the server's
// (clock_timestamp()), so heartbeat ages never depend on an agent's clock. A run's rows are
// deleted (cascade) once the coordinator has merged them into its own database.
import type pg from 'pg'

export const SCHEMA = 'cannonade_agents'

const DDL = `
CREATE SCHEMA IF NOT EXISTS ${SCHEMA};
CREATE TABLE IF NOT EXISTS ${SCHEMA}.runs (
  run_key    text        PRIMARY KEY,
  spec       jsonb       NOT NULL,
  state      text        NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'stopping', 'ended')),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
-- One row per (run, index), claimed by INSERT: a second join of an index finds it taken.
CREATE TABLE IF NOT EXISTS ${SCHEMA}.agents (
  run_key       text        NOT NULL REFERENCES ${SCHEMA}.runs ON DELETE CASCADE,
  agent_index   int         NOT NULL,
  host          text        NOT NULL,
  pid           int         NOT NULL,
  ledger        text        NOT NULL,
  joined_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  heartbeat_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  state         text        NOT NULL DEFAULT 'joined',
  ready_segment int         NOT NULL DEFAULT -1,
  offset_ms     float8,
  delay_ms      float8,
  starts        jsonb       NOT NULL DEFAULT '{}',
  end_info      jsonb,
  PRIMARY KEY (run_key, agent_index)
);
CREATE TABLE IF NOT EXISTS ${SCHEMA}.releases (
  run_key      text   NOT NULL REFERENCES ${SCHEMA}.runs ON DELETE CASCADE,
  segment      int    NOT NULL,
  at_ms        float8 NOT NULL,
  start_second int    NOT NULL,
  PRIMARY KEY (run_key, segment)
);
CREATE TABLE IF NOT EXISTS ${SCHEMA}.seconds (
  id          bigserial PRIMARY KEY,
  run_key     text  NOT NULL REFERENCES ${SCHEMA}.runs ON DELETE CASCADE,
  agent_index int   NOT NULL,
  segment     int   NOT NULL,
  t           int   NOT NULL,
  data        jsonb NOT NULL,
  UNIQUE (run_key, agent_index, segment, t)
);
CREATE TABLE IF NOT EXISTS ${SCHEMA}.segments (
  id          bigserial PRIMARY KEY,
  run_key     text  NOT NULL REFERENCES ${SCHEMA}.runs ON DELETE CASCADE,
  agent_index int   NOT NULL,
  segment     int   NOT NULL,
  data        jsonb NOT NULL,
  summary     jsonb NOT NULL,
  UNIQUE (run_key, agent_index, segment)
);
CREATE TABLE IF NOT EXISTS ${SCHEMA}.blocks (
  id           bigserial PRIMARY KEY,
  run_key      text  NOT NULL REFERENCES ${SCHEMA}.runs ON DELETE CASCADE,
  agent_index  int   NOT NULL,
  target_index int   NOT NULL,
  round        int   NOT NULL,
  count        int   NOT NULL,
  data         bytea NOT NULL
);
CREATE INDEX IF NOT EXISTS seconds_run ON ${SCHEMA}.seconds (run_key, segment);
CREATE INDEX IF NOT EXISTS blocks_run ON ${SCHEMA}.blocks (run_key, id);
`

/** Create the tables if needed; an advisory lock keeps two coordinators from racing on the DDL. */
export async function ensureSchema(client: pg.Client): Promise<void> {
  await client.query('BEGIN')
  try {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('${SCHEMA}'))`)
    await client.query(DDL)
    await client.query('COMMIT')
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {})
    throw err
  }
}

/** LISTEN/NOTIFY channels: the coordinator → the agents of a run, and the agents → it. */
export const agentsChannel = (runKey: string) => `cannonade_a_${runKey}`
export const coordinatorChannel = (runKey: string) => `cannonade_c_${runKey}`

/** The store's clock in ms since the epoch. */
export const NOW_SQL = `SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now`
