-- The database's connection limit beside its connections (issue 27, item 5: the limiting resource):
-- the postgres monitor's rows carry max_connections less the connections reserved for superusers,
-- so a target whose database ran out of connections can be told from one that did not. NULL in
-- every other row, and in rows recorded before it was read.
ALTER TABLE resource_samples ADD COLUMN connection_limit INTEGER;
