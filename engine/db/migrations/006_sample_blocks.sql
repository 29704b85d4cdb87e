-- During a run the ledger writes whole batches as blocks (one BLOB of typed-array columns per
-- 4 096 requests): ~0.2 µs per request instead of ~1.5 µs for a row insert, on the generator's own
-- CPU. Between segments, and after a crash by the parent, blocks are expanded into `samples`
-- (engine/store/blocks.ts) and deleted, each block in one transaction.
CREATE TABLE sample_blocks (
  id           INTEGER PRIMARY KEY,
  run_id       INTEGER NOT NULL,
  target_index INTEGER NOT NULL,
  round        INTEGER NOT NULL,
  count        INTEGER NOT NULL,
  data         BLOB    NOT NULL
) STRICT;
CREATE INDEX sample_blocks_run ON sample_blocks (run_id, id);
