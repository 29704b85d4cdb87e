// One target in the Targets step: name, URL (checked by the engine's probe: status and time, or
// the reason in words), method, headers and body, or a scenario of steps; the stack it runs on
// when it came from a template.
import { useState } from 'react'
import type { ProbeResult } from '../../../../engine/api/types.ts'
import { errorMessage, useApi } from '../../api/context.tsx'
import { Button, Card } from '../../ui/Common.tsx'
import { CheckboxField, NumberField, SelectField, TextField } from '../../ui/Field.tsx'
import type { Issues, TargetDraft } from './draft.ts'
import { MonitorQuestionBox } from './MonitorQuestion.tsx'
import type { StackPlace } from './monitorFollow.ts'
import { ScenarioEditor } from './ScenarioEditor.tsx'
import { firstStepFor, METHODS } from './scenarioDraft.ts'
import type { Patch } from './draft.ts'

type Check = { state: 'idle' | 'checking' } | { state: 'ok' | 'fail'; message: string }
type CheckOf = Check & { url: string }

/** The engine's probe answer in words: status and time, or why nothing answered. */
export function describeProbe(r: ProbeResult): Check {
  if (r.status !== null) {
    const text = `answered ${r.status} in ${r.latencyMs ?? '?'} ms`
    return r.ok ? { state: 'ok', message: text } : { state: 'fail', message: `${text}: not a success status` }
  }
  return { state: 'fail', message: `no answer: ${r.error ?? 'no reason given'}` }
}

export function TargetEditor({
  target,
  index,
  patch,
  issues,
  canRemove,
  stacks,
}: {
  target: TargetDraft
  index: number
  patch: Patch
  issues: Issues
  canRemove: boolean
  stacks: readonly StackPlace[]
}) {
  const api = useApi()
  const [checked, setCheck] = useState<CheckOf>({ state: 'idle', url: '' })
  // The engine sends one GET (it can see the status; a page's no-cors fetch could not). An answer
  // about a URL the user has since changed is not shown.
  const url = target.url.trim()
  const check: Check = checked.url === url ? checked : { state: 'idle' }
  const handleCheck = () => {
    setCheck({ state: 'checking', url })
    api.targets.probe(url, { insecure: target.insecure }).then(
      (r) => setCheck({ ...describeProbe(r), url }),
      (err: unknown) => setCheck({ state: 'fail', message: `could not check: ${errorMessage(err)}`, url }),
    )
  }
  const at = (field: string) => issues.get(`targets.${index}.${field}`)
  const set = (change: (t: TargetDraft) => void) =>
    patch((d) => {
      const t = d.targets[index]
      if (t) change(t)
    })
  const hasBody = target.method !== 'GET' && target.method !== 'HEAD'
  const scenario = target.steps !== null
  return (
    <Card
      testId={`target-${index}`}
      title={`Target ${index + 1}`}
      actions={
        canRemove ? (
          <Button
            variant="ghost"
            onClick={() => patch((d) => void d.targets.splice(index, 1))}
            data-testid={`target-${index}-remove`}
            aria-label={`Remove target ${index + 1}`}
          >
            Remove
          </Button>
        ) : null
      }
    >
      <div className="grid-2">
        <TextField
          label="Name"
          value={target.name}
          onChange={(v) => set((t) => void (t.name = v))}
          error={at('name')}
          testId={`target-${index}-name`}
        />
        {scenario ? (
          <p className="muted">A scenario: each step has its own method and path.</p>
        ) : (
          <SelectField
            label="Method"
            value={target.method}
            options={METHODS.map((m) => ({ value: m, label: m }))}
            onChange={(v) => set((t) => void (t.method = v))}
            error={at('method')}
            testId={`target-${index}-method`}
          />
        )}
      </div>
      <div className="url-row">
        <TextField
          className="grow"
          label={scenario ? "Base URL (the steps' paths go to its host)" : 'URL'}
          type="url"
          value={target.url}
          placeholder="http://127.0.0.1:8080/path"
          onChange={(v) => set((t) => void (t.url = v))}
          error={at('url')}
          testId={`target-${index}-url`}
        />
        <Button
          busy={check.state === 'checking'}
          disabled={target.url.trim() === '' || Boolean(at('url'))}
          onClick={handleCheck}
          data-testid={`target-${index}-check`}
        >
          Check
        </Button>
      </div>
      {check.state === 'ok' || check.state === 'fail' ? (
        <div
          className={check.state === 'ok' ? 'check-ok' : 'field-error'}
          role="status"
          data-testid={`target-${index}-check-result`}
          data-ok={check.state === 'ok' ? 'true' : 'false'}
        >
          {check.state === 'ok' ? '✓ ' : '✗ '}
          {check.message}
        </div>
      ) : null}
      <MonitorQuestionBox target={target} index={index} stacks={stacks} set={set} />
      {target.url.startsWith('https:') ? (
        <CheckboxField
          label="Accept a self-signed certificate"
          checked={target.insecure}
          onChange={(v) => set((t) => void (t.insecure = v))}
          testId={`target-${index}-insecure`}
        />
      ) : null}
      {target.stack ? (
        <p className="muted" data-testid={`target-${index}-stack`}>
          Runs on the <code>{target.stack.name}</code> stack
          {Object.keys(target.stack.env).length
            ? ` with ${Object.entries(target.stack.env)
                .map(([k, v]) => `${k}=${v}`)
                .join(', ')}`
            : ''}
          .{' '}
          <Button
            variant="ghost"
            onClick={() => set((t) => void (t.stack = null))}
            data-testid={`target-${index}-stack-remove`}
          >
            Forget the stack
          </Button>
        </p>
      ) : null}
      {scenario ? (
        <ScenarioEditor target={target} index={index} set={set} issues={issues} />
      ) : (
        <>
          <details className="advanced">
            <summary>Headers{hasBody ? ' and body' : ''}</summary>
            {target.headers.map((h, hi) => (
              <div className="grid-2 header-row" key={hi}>
                <TextField
                  label="Header"
                  value={h.name}
                  onChange={(v) => set((t) => void (t.headers[hi] = { name: v, value: h.value }))}
                  error={h.name ? at(`headers.${h.name}`) : undefined}
                  testId={`target-${index}-header-${hi}-name`}
                />
                <div className="url-row">
                  <TextField
                    className="grow"
                    label="Value"
                    value={h.value}
                    onChange={(v) => set((t) => void (t.headers[hi] = { name: h.name, value: v }))}
                    testId={`target-${index}-header-${hi}-value`}
                  />
                  <Button
                    variant="ghost"
                    onClick={() => set((t) => void t.headers.splice(hi, 1))}
                    aria-label={`Remove header ${h.name}`}
                  >
                    ✕
                  </Button>
                </div>
              </div>
            ))}
            <Button
              variant="ghost"
              onClick={() => set((t) => void t.headers.push({ name: '', value: '' }))}
              data-testid={`target-${index}-add-header`}
            >
              Add header
            </Button>
            {at('headers') ? <div className="field-error">{at('headers')}</div> : null}
            {hasBody ? (
              <CheckboxField
                label="Generate the body: a size in bytes, JSON or text (built once before the run)"
                checked={target.generated !== null}
                onChange={(on) => set((t) => void (t.generated = on ? { size: 1024, kind: 'json' } : null))}
                testId={`target-${index}-generated`}
              />
            ) : null}
            {hasBody && target.generated ? (
              <div className="grid-3">
                <NumberField
                  label="Body size (bytes)"
                  value={target.generated.size}
                  min={0}
                  step={1}
                  onChange={(v) =>
                    set((t) => {
                      if (t.generated) t.generated.size = v
                    })
                  }
                  error={at('body.size') ?? at('body')}
                  testId={`target-${index}-body-size`}
                />
                <SelectField
                  label="Body kind"
                  value={target.generated.kind}
                  options={[
                    { value: 'json', label: 'JSON' },
                    { value: 'text', label: 'plain text' },
                  ]}
                  onChange={(v) =>
                    set((t) => {
                      if (t.generated) t.generated.kind = v
                    })
                  }
                  testId={`target-${index}-body-kind`}
                />
              </div>
            ) : hasBody ? (
              <label className="field">
                Body
                <textarea
                  rows={4}
                  value={target.body}
                  onChange={(e) => set((t) => void (t.body = e.target.value))}
                  data-testid={`target-${index}-body`}
                  spellCheck={false}
                />
              </label>
            ) : null}
          </details>
          <Button
            variant="ghost"
            onClick={() => set((t) => void (t.steps = [firstStepFor(t.url)]))}
            data-testid={`target-${index}-scenario-on`}
          >
            Make it a scenario (a sequence of requests)…
          </Button>
        </>
      )}
    </Card>
  )
}
