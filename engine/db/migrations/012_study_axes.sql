-- Sweeps over any value (a stack name, a body kind, a set of targets), and grids of two settings.
-- studies.path and studies."values" keep the first setting swept; axes lists every one:
-- JSON [{"path": …, "values": […]}] (NULL for a study written before: one axis, path and values).
ALTER TABLE studies ADD COLUMN axes TEXT;
-- The values of a study's run, one per axis (JSON); sweep_value keeps the first axis's position
-- (the value itself when it is a number, else its index among the axis's values).
ALTER TABLE runs ADD COLUMN sweep_point TEXT;
