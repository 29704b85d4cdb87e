// Step 1: what to load. URLs typed in, taken from a running stack, or the built-in demo target;
// a Check button asks the target whether it answers.
import { useState } from 'react'
import { useApi, useAsync } from '../../api/context.tsx'
import { Button, Card } from '../../ui/Common.tsx'
import { CheckboxField, SelectField, TextField } from '../../ui/Field.tsx'
import { useDemoUrl } from '../../ui/DemoButton.tsx'
import { emptyTarget, type Draft, type Issues, type TargetDraft } from './draft.ts'
import type { Patch } from './Wizard.tsx'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const

type Check = { state: 'idle' | 'checking' } | { state: 'ok' | 'fail'; message: string }

/**
 * Does the URL answer? From the page this can only be a no-cors request: it tells "something
 * answered" (or not) but not the status code, which is enough to catch a wrong port or host.
 */
async function checkUrl(url: string): Promise<Check> {
  const started = performance.now()
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), 5000)
  try {
    await fetch(url, { mode: 'no-cors', cache: 'no-store', signal: controller.signal, credentials: 'omit' })
    return { state: 'ok', message: `answered in ${Math.round(performance.now() - started)} ms` }
  } catch (err) {
    const timedOut = controller.signal.aborted
    return {
      state: 'fail',
      message: timedOut
        ? 'no answer within 5 s'
        : `no answer (${err instanceof Error ? err.message : String(err)})`,
    }
  } finally {
    clearTimeout(timer)
  }
}

function TargetEditor({
  target,
  index,
  patch,
  issues,
  canRemove,
}: {
  target: TargetDraft
  index: number
  patch: Patch
  issues: Issues
  canRemove: boolean
}) {
  const [check, setCheck] = useState<Check>({ state: 'idle' })
  const at = (field: string) => issues.get(`targets.${index}.${field}`)
  const set = (change: (t: TargetDraft) => void) =>
    patch((d) => {
      const t = d.targets[index]
      if (t) change(t)
    })
  const hasBody = target.method !== 'GET' && target.method !== 'HEAD'
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
        <SelectField
          label="Method"
          value={target.method}
          options={METHODS.map((m) => ({ value: m, label: m }))}
          onChange={(v) => set((t) => void (t.method = v))}
          error={at('method')}
          testId={`target-${index}-method`}
        />
      </div>
      <div className="url-row">
        <TextField
          className="grow"
          label="URL"
          type="url"
          value={target.url}
          placeholder="http://127.0.0.1:8080/path"
          onChange={(v) => {
            set((t) => void (t.url = v))
            setCheck({ state: 'idle' })
          }}
          error={at('url')}
          testId={`target-${index}-url`}
        />
        <Button
          busy={check.state === 'checking'}
          disabled={target.url.trim() === '' || Boolean(at('url'))}
          onClick={() => {
            setCheck({ state: 'checking' })
            void checkUrl(target.url.trim()).then(setCheck)
          }}
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
        >
          {check.state === 'ok' ? '✓ ' : '✗ '}
          {check.message}
        </div>
      ) : null}
      {target.url.startsWith('https:') ? (
        <CheckboxField
          label="Accept a self-signed certificate"
          checked={target.insecure}
          onChange={(v) => set((t) => void (t.insecure = v))}
          testId={`target-${index}-insecure`}
        />
      ) : null}
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
    </Card>
  )
}

function StackPicker({ onPick }: { onPick: (name: string, url: string) => void }) {
  const api = useApi()
  const stacks = useAsync(() => api.stacks.status(), [api])
  const running = (stacks.data ?? []).filter((s) => s.state === 'healthy' || s.state === 'native')
  if (running.length === 0) return null
  return (
    <label className="inline-label">
      From a running stack
      <select
        value=""
        onChange={(e) => {
          const s = running.find((x) => x.name === e.target.value)
          if (s) onPick(s.name, s.url)
        }}
        data-testid="targets-from-stack"
      >
        <option value="">choose…</option>
        {running.map((s) => (
          <option key={s.name} value={s.name}>
            {s.name} ({s.url})
          </option>
        ))}
      </select>
    </label>
  )
}

export function TargetsStep({ draft, patch, issues }: { draft: Draft; patch: Patch; issues: Issues }) {
  const demoUrl = useDemoUrl()
  const add = (name: string, url: string) =>
    patch((d) => {
      const blank = d.targets.findIndex((t) => t.url.trim() === '')
      const unique = d.targets.some((t, i) => t.name === name && i !== blank)
        ? `${name}-${d.targets.length + 1}`
        : name
      if (blank >= 0)
        d.targets[blank] = {
          ...emptyTarget(unique, url),
          monitor: d.targets[blank]?.monitor ?? emptyTarget().monitor,
        }
      else d.targets.push(emptyTarget(unique, url))
    })
  return (
    <div data-testid="step-targets">
      <p className="lead">
        The servers to compare. Each target gets the same load, one after another (or interleaved, set in the
        next step).
      </p>
      {issues.get('targets') ? (
        <div className="field-error" role="alert">
          targets {issues.get('targets')}
        </div>
      ) : null}
      {draft.targets.map((t, i) => (
        <TargetEditor
          key={i}
          target={t}
          index={i}
          patch={patch}
          issues={issues}
          canRemove={draft.targets.length > 1}
        />
      ))}
      <div className="actions">
        <Button
          onClick={() => patch((d) => void d.targets.push(emptyTarget(`target-${d.targets.length + 1}`)))}
          data-testid="targets-add"
        >
          Add target
        </Button>
        <Button
          disabled={!demoUrl}
          title={demoUrl ? demoUrl : 'This engine offers no demo target'}
          onClick={() => demoUrl && add('demo', demoUrl)}
          data-testid="targets-add-demo"
        >
          Add the demo target
        </Button>
        <StackPicker onPick={add} />
      </div>
    </div>
  )
}
