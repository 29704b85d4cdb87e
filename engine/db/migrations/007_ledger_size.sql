-- The raw ledger's size per run (~56 bytes a request with its index), shown to the user, and
-- whether its samples were pruned (retention) while summaries, series and histograms stay.
ALTER TABLE runs ADD COLUMN ledger_rows INTEGER;
ALTER TABLE runs ADD COLUMN ledger_pruned_at TEXT;
