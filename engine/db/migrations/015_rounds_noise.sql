-- Rounds in a random order, rounds until precise, and the noise each round ran in (issue 27).
-- Only adds columns; NULL in runs recorded before.
-- run_targets.segment: the segment's place in the run (0 first), so the order a randomized
-- schedule drew is read back as it ran. run_targets.noise: what shared the machine while the
-- segment ran (engine/metrics/noise.ts, RoundNoise JSON), and whether it counts as disturbed.
-- runs.rounds: how the rounds ended (reason, the headline intervals at the end: StoredStop JSON).
ALTER TABLE run_targets ADD COLUMN segment INTEGER;
ALTER TABLE run_targets ADD COLUMN noise TEXT;
ALTER TABLE runs ADD COLUMN rounds TEXT;
