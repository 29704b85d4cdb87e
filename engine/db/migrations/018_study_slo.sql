-- A study's latency target (issue 27, item 7: capacity at a latency target): the sweep's `slo`
-- as JSON {"metric": "p99", "ms": 50}; the study reports per target the highest throughput whose
-- percentile stayed under it. NULL for a study without one, and for studies written before.
ALTER TABLE studies ADD COLUMN slo TEXT;
