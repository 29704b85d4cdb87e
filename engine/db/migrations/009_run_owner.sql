-- Who is running a run, so that whatever opens the database next can tell a run that is going
-- from one whose process died (engine/store/owner.ts): the engine host that started it (owner)
-- and its runner process (worker_pid), each with its start identity (boot id and start time), so
-- a recycled pid is never mistaken for them. NULL on rows written before this migration.
ALTER TABLE runs ADD COLUMN owner_pid INTEGER;
ALTER TABLE runs ADD COLUMN owner_start TEXT;
ALTER TABLE runs ADD COLUMN worker_start TEXT;
-- Runs that used this machine's load generator at the same time as this one (a JSON array of run
-- ids), when the user allowed it: their figures measure each other too, and say so.
ALTER TABLE runs ADD COLUMN shared_with TEXT;
