-- What went wrong beside the load without ending a run: a monitor that could not read its source
-- (a container that does not exist, Docker not reachable, a Cloud Foundry login refused). Shown
-- live, in run detail, by `runs show` and in the report. One row per monitor field and message:
-- a monitor reports the same failure once until it changes, `count` says how often it came.
CREATE TABLE run_warnings (
  run_id   INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  kind     TEXT    NOT NULL,            -- 'monitor'
  field    TEXT    NOT NULL,            -- the config field: targets.0.monitor (targets.0.monitor.1 in a list)
  target   TEXT    NOT NULL,
  source   TEXT    NOT NULL,            -- docker | process | cloudfoundry | postgres
  message  TEXT    NOT NULL,
  stopped  INTEGER NOT NULL,            -- 1: the monitor gave up for the rest of the run
  first_ms INTEGER NOT NULL,            -- epoch ms, when first reported
  t        REAL,                        -- seconds since the run's start (negative before it); NULL until known
  count    INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (run_id, field, message)
) STRICT;
