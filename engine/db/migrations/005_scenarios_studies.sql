-- Scenario steps per request, and studies (sweeps): one run per swept value, listed together.
ALTER TABLE samples ADD COLUMN step INTEGER;   -- index into the target's steps; NULL for plain targets

CREATE TABLE studies (
  id         INTEGER PRIMARY KEY,
  name       TEXT    NOT NULL,
  kind       TEXT    NOT NULL CHECK (kind IN ('sweep')),
  path       TEXT    NOT NULL,
  "values"   TEXT    NOT NULL,                 -- JSON array of the swept values
  created_at TEXT    NOT NULL
) STRICT;

ALTER TABLE runs ADD COLUMN study_id INTEGER REFERENCES studies (id) ON DELETE SET NULL;
ALTER TABLE runs ADD COLUMN sweep_value REAL;
CREATE INDEX runs_study ON runs (study_id);
