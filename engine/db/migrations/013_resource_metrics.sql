-- Named series of the prometheus monitor beside CPU and memory (JVM heap, GC pause, event-loop lag,
-- any PromQL): one row per instance, series and tick, with the series' name here and its value in
-- `value` (CPU, memory and connections NULL). Both NULL for every other row. The name carries
-- Prometheus' unit suffix (heap_bytes, gc_pause_ratio, event_loop_lag_seconds), which formats it.
ALTER TABLE resource_samples ADD COLUMN metric TEXT;
ALTER TABLE resource_samples ADD COLUMN value REAL;
