-- foreign keys: off (runs is rebuilt; engine/store/db.ts checks every foreign key before commit)
-- A run's id is never given again (issue 20, item 3): without AUTOINCREMENT SQLite hands the
-- deleted newest run's id to the next run, and that run's exports (run-ID-….csv) overwrite the old
-- one's. AUTOINCREMENT cannot be added in place, so runs is rebuilt (its columns as of 012).
CREATE TABLE runs_new (
  id                 INTEGER PRIMARY KEY AUTOINCREMENT,
  name               TEXT    NOT NULL,
  status             TEXT    NOT NULL CHECK (status IN ('running', 'done', 'partial', 'aborted', 'failed')),
  config             TEXT    NOT NULL,
  correlation_prefix TEXT    NOT NULL,
  started_at         TEXT    NOT NULL,
  ended_at           TEXT,
  error              TEXT,
  tags               TEXT    NOT NULL DEFAULT '[]',
  note               TEXT    NOT NULL DEFAULT '',
  generator          TEXT,
  thresholds         TEXT,
  worker_pid         INTEGER,
  study_id           INTEGER REFERENCES studies (id) ON DELETE SET NULL,
  sweep_value        REAL,
  ledger_rows        INTEGER,
  ledger_pruned_at   TEXT,
  owner_pid          INTEGER,
  owner_start        TEXT,
  worker_start       TEXT,
  shared_with        TEXT,
  distribution       TEXT,
  sweep_point        TEXT
) STRICT;
INSERT INTO runs_new (id, name, status, config, correlation_prefix, started_at, ended_at, error, tags, note,
                      generator, thresholds, worker_pid, study_id, sweep_value, ledger_rows, ledger_pruned_at,
                      owner_pid, owner_start, worker_start, shared_with, distribution, sweep_point)
  SELECT id, name, status, config, correlation_prefix, started_at, ended_at, error, tags, note,
         generator, thresholds, worker_pid, study_id, sweep_value, ledger_rows, ledger_pruned_at,
         owner_pid, owner_start, worker_start, shared_with, distribution, sweep_point FROM runs;
DROP TABLE runs;
ALTER TABLE runs_new RENAME TO runs;
CREATE INDEX runs_started ON runs (started_at DESC);
CREATE INDEX runs_origin ON runs (correlation_prefix, started_at);
CREATE INDEX runs_study ON runs (study_id);
