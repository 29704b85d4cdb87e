-- Runs brought in from another Cannonade database (`cannonade import json`). The origin id
-- (`<correlation prefix>@<started at>`) is what makes a second import of the same run detectable:
-- run ids are local to each database and mean nothing elsewhere.
CREATE TABLE imports (
  run_id        INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
  origin        TEXT    NOT NULL UNIQUE,
  source_run_id INTEGER NOT NULL,
  source        TEXT    NOT NULL,          -- the file it came from
  imported_at   TEXT    NOT NULL
) STRICT;

-- The origin of a run made here, for the duplicate check of an import.
CREATE INDEX runs_origin ON runs (correlation_prefix, started_at);
