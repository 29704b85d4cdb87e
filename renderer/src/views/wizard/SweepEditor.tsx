// A sweep in the Load step: the same run repeated once per value of one config setting
// (connections 8/16/32/64, a stack's POOL_SIZE, a stack's name, a body kind…), or per pair of values
// of two settings (a grid), recorded together as a study whose page plots throughput and latency
// against the value, a line per value of the second setting, and marks the knee.
import { duration as fmtDuration } from '../../lib/format.ts'
import { CheckboxField, Field, SelectField, TextField } from '../../ui/Field.tsx'
import { SLO_METRICS, type SloMetric } from '#engine/config/schema.ts'
import type { Draft, Issues } from './draft.ts'
import { parseSweepValues, SWEEP_SUGGESTIONS, type SweepDraft } from './sweepDraft.ts'
import type { Patch } from './draft.ts'

/** The percentiles a latency target may name, as the select offers them. */
const SLO_OPTIONS = (Object.keys(SLO_METRICS) as SloMetric[]).map((m) => ({ value: m, label: m }))

/** The first message about an axis's values, naming the value it is about ("value 3 ("x"): …"). */
function valuesError(issues: Issues, field: string, text: string): string | undefined {
  const whole = issues.get(field)
  if (whole) return whole
  for (const key of issues.keys()) {
    const m = new RegExp(`^${field.replace('.', '\\.')}\\.(\\d+)$`).exec(key)
    const message = m ? issues.get(key) : undefined
    if (!m || message === undefined) continue
    const i = Number(m[1])
    const typed = text.split(/[\s,;]+/).filter((v) => v !== '')[i]
    return `value ${i + 1} ("${typed ?? ''}"): ${message}`
  }
  return undefined
}

function PathField({
  value,
  onChange,
  error,
  testId,
  label,
}: {
  value: string
  onChange: (v: string) => void
  error: string | undefined
  testId: string
  label: string
}) {
  return (
    <Field
      label={label}
      error={error}
      hint="A setting of the config: load.connections, targets.0.stack.env.POOL_SIZE, targets.0.stack.name, targets.*.query.iterations, targets (sets of targets)…"
      testId={testId}
    >
      {(p) => (
        <>
          <input
            {...p}
            list="sweep-path-suggestions"
            value={value}
            spellCheck={false}
            onChange={(e) => onChange(e.target.value)}
          />
          <datalist id="sweep-path-suggestions">
            {SWEEP_SUGGESTIONS.map((x) => (
              <option key={x} value={x} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  )
}

/** The sweep's latency target: a percentile and its ms (none while the ms are empty). */
function SloFields({
  s,
  set,
  issues,
}: {
  s: SweepDraft
  set: (change: (s: SweepDraft) => void) => void
  issues: Issues
}) {
  return (
    <div className="grid-2">
      <SelectField
        label="Latency target on"
        value={s.sloMetric}
        options={SLO_OPTIONS}
        onChange={(v) => set((x) => void (x.sloMetric = v))}
        testId="sweep-slo-metric"
      />
      <TextField
        label="Latency target (ms)"
        value={s.sloMs}
        placeholder="none"
        onChange={(v) => set((x) => void (x.sloMs = v))}
        error={issues.get(`sweep.slo.${s.sloMetric}`) ?? issues.get('sweep.slo')}
        hint="The study then reports, per target, the highest throughput whose percentile stays under it (with its interval over rounds), beside the knee. Needs values that are numbers."
        testId="sweep-slo-ms"
      />
    </div>
  )
}

export function SweepEditor({ draft, patch, issues }: { draft: Draft; patch: Patch; issues: Issues }) {
  const s = draft.sweep
  const set = (change: (s: SweepDraft) => void) => patch((d) => change(d.sweep))
  const values = parseSweepValues(s.values, s.path.trim())
  const byValues = s.byEnabled ? parseSweepValues(s.byValues, s.byPath.trim()) : [null]
  const runs = values.length * byValues.length
  const perRun =
    draft.load.mode === 'duration' && draft.load.duration !== undefined
      ? draft.load.duration * draft.targets.length * (draft.rounds ?? 1)
      : null
  return (
    <section className="sweep" data-testid="sweep">
      <CheckboxField
        label="Sweep: one run per value (a study)"
        checked={s.enabled}
        onChange={(v) => set((x) => void (x.enabled = v))}
        testId="sweep-enabled"
        hint="For example connections 32, 64, 128, 256, or stacks node-http, node-cluster: the study page then plots throughput and latency against the value and marks the knee."
      />
      {s.enabled ? (
        <>
          <div className="grid-2">
            <PathField
              label="Config setting"
              value={s.path}
              onChange={(v) => set((x) => void (x.path = v))}
              error={issues.get('sweep.path')}
              testId="sweep-path"
            />
            <TextField
              label="Values (comma separated)"
              value={s.values}
              placeholder="32, 64, 128, 256"
              onChange={(v) => set((x) => void (x.values = v))}
              error={valuesError(issues, 'sweep.values', s.values)}
              hint={
                ![...issues.keys()].some((k) => k.startsWith('sweep')) && values.length > 0
                  ? `${runs} run${runs === 1 ? '' : 's'}${
                      perRun !== null ? `, about ${fmtDuration(perRun)} each` : ''
                    }, with the cool-down between them.`
                  : 'Numbers, words (node-http), true/false; for targets, sets like a+b.'
              }
              testId="sweep-values"
            />
          </div>
          <CheckboxField
            label="Against a second setting (a grid: every pair of values, a line per value of this one)"
            checked={s.byEnabled}
            onChange={(v) => set((x) => void (x.byEnabled = v))}
            testId="sweep-by-enabled"
          />
          {s.byEnabled ? (
            <div className="grid-2">
              <PathField
                label="Second setting"
                value={s.byPath}
                onChange={(v) => set((x) => void (x.byPath = v))}
                error={issues.get('sweep.by.path') ?? issues.get('sweep.by')}
                testId="sweep-by-path"
              />
              <TextField
                label="Its values"
                value={s.byValues}
                placeholder="1, 2, 4"
                onChange={(v) => set((x) => void (x.byValues = v))}
                error={valuesError(issues, 'sweep.by.values', s.byValues)}
                testId="sweep-by-values"
              />
            </div>
          ) : null}
          <TextField
            label="Warm-up after a stack restart (seconds)"
            value={s.warmupSeconds}
            placeholder="10"
            onChange={(v) => set((x) => void (x.warmupSeconds = v))}
            error={issues.get('sweep.warmupSeconds')}
            hint="When a value restarts a stack (its env, replicas or name), its run opens with this much warm-up, recorded and left out of its figures. The stack gets its earlier settings back when the study ends."
            testId="sweep-warmup"
          />
          <SloFields s={s} set={set} issues={issues} />
        </>
      ) : null}
    </section>
  )
}
