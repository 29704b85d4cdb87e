-- Cannonade's local history. STRICT tables: a wrong type is an error, not a silent coercion.
CREATE TABLE runs (
  id                 INTEGER PRIMARY KEY,
  name               TEXT    NOT NULL,
  status             TEXT    NOT NULL CHECK (status IN ('running', 'done', 'aborted', 'failed')),
  config             TEXT    NOT NULL,           -- the validated RunConfig, JSON
  correlation_prefix TEXT    NOT NULL,
  started_at         TEXT    NOT NULL,           -- ISO 8601 UTC
  ended_at           TEXT,
  error              TEXT,
  tags               TEXT    NOT NULL DEFAULT '[]',
  note               TEXT    NOT NULL DEFAULT '',
  generator          TEXT,                       -- GeneratorHealth JSON
  thresholds         TEXT,                       -- ThresholdResult[] JSON
  worker_pid         INTEGER
) STRICT;
CREATE INDEX runs_started ON runs (started_at DESC);

-- One row per target and round: results are kept apart, never merged.
CREATE TABLE run_targets (
  run_id              INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  target_index        INTEGER NOT NULL,
  round               INTEGER NOT NULL,
  target              TEXT    NOT NULL,
  url                 TEXT    NOT NULL,
  summary             TEXT,                      -- StatsBlock + phases JSON, written at the end
  histogram           TEXT,                      -- base64 compressed HDR histogram (µs)
  corrected_histogram TEXT,
  PRIMARY KEY (run_id, target_index, round)
) STRICT;

-- Per second, per target and round, on the run's timeline (t = seconds since run start).
CREATE TABLE series (
  run_id        INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  target_index  INTEGER NOT NULL,
  round         INTEGER NOT NULL,
  t             INTEGER NOT NULL,
  phase         INTEGER NOT NULL,
  connections   INTEGER NOT NULL,
  requests      INTEGER NOT NULL,
  errors        INTEGER NOT NULL,
  errors_json   TEXT    NOT NULL,
  status_json   TEXT    NOT NULL,
  bytes         INTEGER NOT NULL,
  mean          REAL    NOT NULL,
  p50           INTEGER NOT NULL,
  p90           INTEGER NOT NULL,
  p95           INTEGER NOT NULL,
  p99           INTEGER NOT NULL,
  p999          INTEGER NOT NULL,
  max           INTEGER NOT NULL,
  generator_cpu REAL,
  PRIMARY KEY (run_id, target_index, round, t)
) STRICT;

-- Every request. seq is the run-unique number in the correlation id `<prefix>-<seq>`.
-- No UNIQUE constraint during the run (it costs 15x on inserts, PERF-NOTES.md); uniqueness is
-- checked by tests after the run. The (run_id, seq) index is appended to in near order.
CREATE TABLE samples (
  run_id       INTEGER NOT NULL,
  seq          INTEGER NOT NULL,
  target_index INTEGER NOT NULL,
  round        INTEGER NOT NULL,
  phase        INTEGER NOT NULL,
  start_us     INTEGER NOT NULL,     -- send time, µs since run start
  latency_us   INTEGER NOT NULL,     -- -1 for requests with no response
  corrected_us INTEGER,              -- rate mode: from the intended send time
  status       INTEGER NOT NULL,     -- 0 when no response
  bytes        INTEGER NOT NULL,
  error        INTEGER NOT NULL,     -- index into ERROR_KINDS
  app_us       INTEGER,              -- Server-Timing app;dur
  db_us        INTEGER               -- Server-Timing db;dur
) STRICT;
CREATE INDEX samples_run_seq ON samples (run_id, seq);

CREATE TABLE resource_samples (
  run_id       INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  t            REAL    NOT NULL,     -- seconds since run start
  target       TEXT    NOT NULL,
  source       TEXT    NOT NULL,     -- docker | process | cloudfoundry | generator
  instance     TEXT    NOT NULL,
  cpu_percent  REAL,
  memory_bytes INTEGER,
  memory_limit INTEGER,
  cpu_limit    REAL,
  state        TEXT
) STRICT;
CREATE INDEX resource_samples_run ON resource_samples (run_id, t);

CREATE TABLE environment (
  run_id  INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
  host    TEXT    NOT NULL,
  cpu     TEXT    NOT NULL,
  cores   INTEGER NOT NULL,
  os      TEXT    NOT NULL,
  node    TEXT    NOT NULL,
  app     TEXT    NOT NULL,
  details TEXT    NOT NULL DEFAULT '{}'  -- target images, limits, versions (JSON)
) STRICT;
