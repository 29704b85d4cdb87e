// A target as a scenario: requests in order per connection (register → login → browse), values
// captured from one response (a JSON path or a header) and used in the next as ${name}. Steps can
// be added, removed and reordered; every field shows the schema's message for it.
import { Button } from '../../ui/Common.tsx'
import { CheckboxField, NumberField, SelectField, TextField } from '../../ui/Field.tsx'
import { ThinkEditor } from './ThinkEditor.tsx'
import type { Issues, TargetDraft } from './draft.ts'
import { showIssues } from './issues.ts'
import { duplicateCaptures, emptyStep, METHODS, type StepDraft } from './scenarioDraft.ts'

type SetTarget = (change: (t: TargetDraft) => void) => void

function StepEditor({
  step,
  index,
  j,
  count,
  set,
  issues,
}: {
  step: StepDraft
  index: number
  j: number
  count: number
  set: SetTarget
  issues: Issues
}) {
  const prefix = `targets.${index}.steps.${j}`
  const id = `target-${index}-step-${j}`
  const at = (f: string) => issues.get(`${prefix}.${f}`)
  const setStep = (change: (s: StepDraft) => void) =>
    set((t) => {
      const s = t.steps?.[j]
      if (s) change(s)
    })
  const move = (to: number) =>
    set((t) => {
      if (!t.steps || to < 0 || to >= t.steps.length) return
      const [s] = t.steps.splice(j, 1)
      if (s) t.steps.splice(to, 0, s)
    })
  const hasBody = step.method !== 'GET' && step.method !== 'HEAD'
  const dup = duplicateCaptures(step)
  // Messages under this step that no field shows (e.g. a bad header name).
  const shown = new Set(
    ['name', 'method', 'path', 'body', 'expectStatus', 'once', 'think', 'think.min', 'think.max'].map(
      (f) => `${prefix}.${f}`,
    ),
  )
  const other = showIssues(
    issues,
    (k) =>
      (k === prefix || k.startsWith(`${prefix}.`)) && !shown.has(k) && !k.startsWith(`${prefix}.capture.`),
  )
  return (
    <section className="step-card" data-testid={id}>
      <header className="step-card-head">
        <h4>
          Step {j + 1}: {step.name || '(unnamed)'}
        </h4>
        <span className="actions">
          <Button
            variant="ghost"
            disabled={j === 0}
            onClick={() => move(j - 1)}
            aria-label={`Move step ${j + 1} up`}
            data-testid={`${id}-up`}
          >
            ↑
          </Button>
          <Button
            variant="ghost"
            disabled={j === count - 1}
            onClick={() => move(j + 1)}
            aria-label={`Move step ${j + 1} down`}
            data-testid={`${id}-down`}
          >
            ↓
          </Button>
          <Button
            variant="ghost"
            disabled={count === 1}
            onClick={() => set((t) => void t.steps?.splice(j, 1))}
            aria-label={`Remove step ${j + 1}`}
            data-testid={`${id}-remove`}
          >
            ✕
          </Button>
        </span>
      </header>
      <div className="grid-4">
        <TextField
          label="Name"
          value={step.name}
          onChange={(v) => setStep((s) => void (s.name = v))}
          error={at('name')}
          testId={`${id}-name`}
        />
        <SelectField
          label="Method"
          value={step.method}
          options={METHODS.map((m) => ({ value: m, label: m }))}
          onChange={(v) => setStep((s) => void (s.method = v))}
          testId={`${id}-method`}
        />
        <TextField
          label="Path"
          value={step.path}
          placeholder="/ads?limit=20"
          onChange={(v) => setStep((s) => void (s.path = v))}
          error={at('path')}
          testId={`${id}-path`}
        />
        <NumberField
          label="Expect status"
          value={step.expectStatus}
          step={1}
          placeholder="any 2xx"
          onChange={(v) => setStep((s) => void (s.expectStatus = v))}
          error={at('expectStatus')}
          testId={`${id}-expect`}
        />
      </div>
      <div className="grid-2">
        <CheckboxField
          label="Once per connection, before the steps that repeat"
          checked={step.once}
          onChange={(v) => setStep((s) => void (s.once = v))}
          testId={`${id}-once`}
          hint={at('once')}
        />
        <ThinkEditor
          think={step.think}
          onChange={(change) => setStep((s) => change(s.think))}
          field={`${prefix}.think`}
          issues={issues}
          label="Think time after this step"
          testId={`${id}-think`}
        />
      </div>
      {step.headers.map((h, hi) => (
        <div className="grid-2 header-row" key={hi}>
          <TextField
            label="Header"
            value={h.name}
            onChange={(v) => setStep((s) => void (s.headers[hi] = { name: v, value: h.value }))}
            error={h.name ? at(`headers.${h.name}`) : undefined}
            testId={`${id}-header-${hi}-name`}
          />
          <div className="url-row">
            <TextField
              className="grow"
              label="Value"
              value={h.value}
              placeholder="Bearer ${token}"
              onChange={(v) => setStep((s) => void (s.headers[hi] = { name: h.name, value: v }))}
              testId={`${id}-header-${hi}-value`}
            />
            <Button
              variant="ghost"
              onClick={() => setStep((s) => void s.headers.splice(hi, 1))}
              aria-label={`Remove header ${h.name}`}
            >
              ✕
            </Button>
          </div>
        </div>
      ))}
      {hasBody ? (
        <label className="field">
          Body
          <textarea
            rows={2}
            value={step.body}
            spellCheck={false}
            onChange={(e) => setStep((s) => void (s.body = e.target.value))}
            data-testid={`${id}-body`}
          />
        </label>
      ) : null}
      {step.captures.map((c, k) => {
        const key = `${prefix}.capture.${c.name}`
        const error =
          (dup.has(k) ? `"${c.name}" is captured twice in this step` : undefined) ??
          issues.get(key) ??
          issues.get(`${key}.${c.kind}`)
        return (
          <div className="capture-row" key={k} data-testid={`${id}-capture-${k}`}>
            <TextField
              label="Capture as"
              value={c.name}
              placeholder="token"
              onChange={(v) => setStep((s) => void (s.captures[k] = { ...c, name: v }))}
              error={error}
              testId={`${id}-capture-${k}-name`}
            />
            <SelectField
              label="From"
              value={c.kind}
              options={[
                { value: 'json', label: 'JSON path' },
                { value: 'header', label: 'header' },
              ]}
              onChange={(v) => setStep((s) => void (s.captures[k] = { ...c, kind: v }))}
              testId={`${id}-capture-${k}-kind`}
            />
            <TextField
              label={c.kind === 'json' ? 'Path in the body' : 'Header name'}
              value={c.expr}
              placeholder={c.kind === 'json' ? 'data.token' : 'location'}
              onChange={(v) => setStep((s) => void (s.captures[k] = { ...c, expr: v }))}
              testId={`${id}-capture-${k}-expr`}
            />
            <Button
              variant="ghost"
              onClick={() => setStep((s) => void s.captures.splice(k, 1))}
              aria-label={`Remove capture ${c.name}`}
            >
              ✕
            </Button>
          </div>
        )
      })}
      <div className="actions">
        <Button
          variant="ghost"
          onClick={() => setStep((s) => void s.headers.push({ name: '', value: '' }))}
          data-testid={`${id}-add-header`}
        >
          Add header
        </Button>
        <Button
          variant="ghost"
          onClick={() => setStep((s) => void s.captures.push({ name: '', kind: 'json', expr: '' }))}
          data-testid={`${id}-add-capture`}
        >
          Capture a value
        </Button>
      </div>
      {other.map(([k, m]) => (
        <div className="field-error" role="alert" key={k}>
          {k.slice(prefix.length + 1) || 'step'} {m}
        </div>
      ))}
    </section>
  )
}

export function ScenarioEditor({
  target,
  index,
  set,
  issues,
}: {
  target: TargetDraft
  index: number
  set: SetTarget
  issues: Issues
}) {
  const steps = target.steps ?? []
  const stepsError = issues.get(`targets.${index}.steps`)
  return (
    <div className="scenario" data-testid={`target-${index}-scenario`}>
      <p className="muted">
        Each connection runs these requests in order against the URL's host, then starts over; steps marked
        once run first, once per connection (register, log in), and what they capture stays for every pass.
        Use <code>{'${name}'}</code> in a path, header or body for a captured value,{' '}
        <code>{'${iteration}'}</code> for a number unique to each pass, <code>{'${user}'}</code> for one
        unique to the connection's user. Think time pauses between a response and the next request; it never
        counts as latency.
      </p>
      <ThinkEditor
        think={target.think}
        onChange={(change) => set((t) => change(t.think))}
        field={`targets.${index}.think`}
        issues={issues}
        label="Think time after every step"
        testId={`target-${index}-think`}
      />
      {stepsError ? (
        <div className="field-error" role="alert" data-testid={`target-${index}-steps-error`}>
          {stepsError}
        </div>
      ) : null}
      {steps.map((s, j) => (
        <StepEditor key={j} step={s} index={index} j={j} count={steps.length} set={set} issues={issues} />
      ))}
      <div className="actions">
        <Button
          onClick={() => set((t) => void t.steps?.push(emptyStep(`step-${(t.steps?.length ?? 0) + 1}`)))}
          data-testid={`target-${index}-add-step`}
        >
          Add step
        </Button>
        <Button
          variant="ghost"
          onClick={() => set((t) => void (t.steps = null))}
          data-testid={`target-${index}-scenario-off`}
        >
          Back to a single request
        </Button>
      </div>
    </div>
  )
}
