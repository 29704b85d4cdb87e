-- Database connections on the run's timeline: the postgres monitor (pg_stat_activity) stores one
-- row per connection state and tick, with the count here and CPU/memory NULL. NULL for every
-- other source.
ALTER TABLE resource_samples ADD COLUMN connections INTEGER;
