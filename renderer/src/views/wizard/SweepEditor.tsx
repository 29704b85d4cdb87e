// A sweep in the Load step: the same run repeated once per value of one numeric config path
// (connections 8/16/32/64, a stack's POOL_SIZE…), recorded together as a study whose page plots
// throughput and latency against the value and marks the knee.
import { duration as fmtDuration } from '../../lib/format.ts'
import { CheckboxField, Field, TextField } from '../../ui/Field.tsx'
import type { Draft, Issues } from './draft.ts'
import { parseSweepValues, SWEEP_SUGGESTIONS } from './sweepDraft.ts'
import type { Patch } from './Wizard.tsx'

/** The first message about the values, naming the value it is about ("value 3 (x) must be a number"). */
function valuesError(issues: Issues, values: number[], text: string): string | undefined {
  const whole = issues.get('sweep.values')
  if (whole) return whole
  for (const field of issues.keys()) {
    const m = /^sweep\.values\.(\d+)$/.exec(field)
    const message = m ? issues.get(field) : undefined
    if (!m || message === undefined) continue
    const i = Number(m[1])
    const typed = text.split(/[\s,;]+/).filter((v) => v !== '')[i]
    return Number.isNaN(values[i])
      ? `value ${i + 1} ("${typed ?? ''}") is not a number`
      : `value ${i + 1}: ${message}`
  }
  return undefined
}

export function SweepEditor({ draft, patch, issues }: { draft: Draft; patch: Patch; issues: Issues }) {
  const s = draft.sweep
  const values = parseSweepValues(s.values)
  const perRun =
    draft.load.mode === 'duration' && draft.load.duration !== undefined
      ? draft.load.duration * draft.targets.length * (draft.rounds ?? 1)
      : null
  return (
    <section className="sweep" data-testid="sweep">
      <CheckboxField
        label="Sweep: one run per value (a study)"
        checked={s.enabled}
        onChange={(v) => patch((d) => void (d.sweep.enabled = v))}
        testId="sweep-enabled"
        hint="For example connections 32, 64, 128, 256: the study page then plots throughput and latency against the value and marks the knee."
      />
      {s.enabled ? (
        <div className="grid-2">
          <Field
            label="Config path"
            error={issues.get('sweep.path')}
            hint="A number in the config, e.g. load.connections or targets.0.stack.env.POOL_SIZE."
            testId="sweep-path"
          >
            {(p) => (
              <>
                <input
                  {...p}
                  list="sweep-path-suggestions"
                  value={s.path}
                  spellCheck={false}
                  onChange={(e) => patch((d) => void (d.sweep.path = e.target.value))}
                />
                <datalist id="sweep-path-suggestions">
                  {SWEEP_SUGGESTIONS.map((x) => (
                    <option key={x} value={x} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
          <TextField
            label="Values (comma separated)"
            value={s.values}
            placeholder="32, 64, 128, 256"
            onChange={(v) => patch((d) => void (d.sweep.values = v))}
            error={valuesError(issues, values, s.values)}
            hint={
              values.length > 0 && values.every((v) => !Number.isNaN(v))
                ? `${values.length} run${values.length === 1 ? '' : 's'}${
                    perRun !== null ? `, about ${fmtDuration(perRun)} each` : ''
                  }, with the cool-down between them.`
                : undefined
            }
            testId="sweep-values"
          />
        </div>
      ) : null}
    </section>
  )
}
