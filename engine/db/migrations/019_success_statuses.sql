-- What counts as a success (issue 28): by default any status from 200 to 399, where runs stored
-- before this migration counted 2xx only; a target's `expect: { status: [...] }` says otherwise.
-- The meaning of one value of a column README.md's "Query the ledger yourself" names changes:
-- samples.error 4, called `non2xx`, is `status` now: an answer outside its target's or step's
-- success statuses (for the runs stored before, that was any answer but a 2xx, as they counted).
-- Stored runs keep the rule they ran with: each target of their config that names no rule gets
-- `expect: { status: ['2xx'] }` (its steps without their own rule take the target's), and the
-- error counts of their summaries and seconds call the kind by its new name.
UPDATE runs SET config = json_set(config, '$.targets', json((
  SELECT json_group_array(
           CASE WHEN json_type(t.value, '$.expect') IS NULL
                THEN json_set(t.value, '$.expect', json('{"status":["2xx"]}'))
                ELSE json(t.value) END
           ORDER BY t.key)
  FROM json_each(runs.config, '$.targets') AS t)))
WHERE json_valid(config) AND json_type(config, '$.targets') = 'array';

UPDATE run_targets SET summary = replace(summary, '"non2xx":', '"status":')
WHERE summary LIKE '%"non2xx":%';

UPDATE series SET errors_json = replace(errors_json, '"non2xx":', '"status":')
WHERE errors_json LIKE '%"non2xx":%';
