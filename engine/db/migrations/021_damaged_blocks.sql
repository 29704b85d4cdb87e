-- Ledger blocks whose count their data does not hold (issue 29, item 2): `import ledger` once
-- stored a block saying 10,000,000 requests over 57 bytes, and every later command that read the
-- run's blocks ran out of memory or failed. Such a block holds no request that can be read (its
-- columns are laid out by its count, 61 bytes a request), so it is removed, and the run's ledger
-- size is counted again when next shown. No table or column changes.
UPDATE runs SET ledger_rows = NULL
  WHERE id IN (SELECT run_id FROM sample_blocks WHERE count < 1 OR length(data) <> count * 61);
DELETE FROM sample_blocks WHERE count < 1 OR length(data) <> count * 61;
