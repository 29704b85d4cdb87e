// Step 4: name and tags, pass/fail thresholds, the run in plain words (the report's words for its
// configuration), the config as YAML (the same document the CLI runs), save it as a template or
// load one, and Start.
import { useMemo, useRef, useState } from 'react'
import { parse as parseYaml, stringify } from 'yaml'
import { ApiError } from '../../../../engine/api/errors.ts'
import {
  isLatencyMetric,
  THRESHOLD_METRICS,
  type RunConfig,
  type ThresholdMetric,
} from '../../../../engine/config/schema.ts'
import { configWords } from '../../../../engine/report/sections.ts'
import { useAction, useApi } from '../../api/context.tsx'
import { navigate } from '../../app/router.tsx'
import { Banner, Button, Card } from '../../ui/Common.tsx'
import { NumberField, SelectField, TextField } from '../../ui/Field.tsx'
import { stepOf, toConfigInput, type Draft, type StepId, type Validation } from './draft.ts'
import { fromConfig } from './fromConfig.ts'
import type { Patch } from './draft.ts'
import { recordStartedStacks } from '../live/startedStacks.ts'

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'run'
  )
}

function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

function unitOf(metric: ThresholdMetric): string {
  return isLatencyMetric(metric) ? 'ms' : metric === 'errorRate' ? '%' : 'req/s'
}

/** The run in plain words before its YAML: what will be sent where, how hard, how long, judged how. */
function RunInWords({ config }: { config: RunConfig }) {
  const w = configWords(config)
  const rows: [string, string | string[]][] = [
    ['Targets', w.targets],
    ['Connections', w.connections],
    ['Load shape', w.profile],
    ['Duration', w.window],
    ['Rounds', w.schedule],
    ['Rate', w.rate],
    ['Connection', w.connection],
    ['Thresholds', w.thresholds.length ? w.thresholds : 'none'],
  ]
  if (config.sweep)
    rows.push(['Study', `one run per value of ${config.sweep.path}: ${config.sweep.values.join(', ')}`])
  return (
    <Card title="This run" testId="review-summary">
      <table className="kv">
        <tbody>
          {rows.map(([label, text]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td data-testid={`review-summary-${label.toLowerCase().replace(/ /g, '-')}`}>
                {Array.isArray(text) ? text.map((line) => <div key={line}>{line}</div>) : text}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  )
}

interface Props {
  draft: Draft
  patch: Patch
  setDraft: (d: Draft) => void
  validation: Validation
  goTo: (step: StepId) => void
}

export function ReviewStep({ draft, patch, setDraft, validation, goTo }: Props) {
  const api = useApi()
  const fileRef = useRef<HTMLInputElement>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const yaml = useMemo(
    () => stringify(validation.config ?? toConfigInput(draft), { lineWidth: 0 }),
    [validation.config, draft],
  )
  // The engine checks more than the schema (e.g. that each target accepts connections); its
  // answer names the field, so the message can send the user to the right step.
  const [startField, setStartField] = useState<string | null>(null)
  // While the engine starts the stacks the config names (before the run), their log shows here.
  const [stackLog, setStackLog] = useState<{ stack: string; line: string }[]>([])
  const start = useAction(async () => {
    if (!validation.config) return
    setStartField(null)
    setStackLog([])
    const started: string[] = []
    const off = api.stacks.onLog((e) => {
      if (/^(not running|running with)/.test(e.line)) started.push(e.stack)
      setStackLog((lines) => [...lines.slice(-200), { stack: e.stack, line: e.line }])
    })
    try {
      const { runId } = await api.runs.start(validation.config)
      recordStartedStacks(runId, started)
      navigate(`/live/${runId}`)
    } catch (err) {
      if (err instanceof ApiError && err.field) setStartField(err.field)
      throw err
    } finally {
      off()
    }
  })
  const at = (f: string) => validation.issues.get(f)
  const targetOptions = [
    { value: '*', label: 'every target' },
    ...draft.targets.map((t) => ({ value: t.name, label: t.name })),
  ]

  const handleLoad = async (file: File) => {
    setLoadError(null)
    try {
      const raw: unknown = parseYaml(await file.text())
      // The engine validates and migrates older versions, exactly as the CLI would.
      const result = await api.runs.validate(raw)
      if (!result.ok || !result.config) {
        setLoadError(result.issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('; '))
        return
      }
      setDraft(fromConfig(result.config))
    } catch (err) {
      setLoadError(`${file.name}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }

  return (
    <div data-testid="step-review" className="review">
      <div className="grid-2">
        <TextField
          label="Run name"
          value={draft.name}
          onChange={(v) => patch((d) => void (d.name = v))}
          error={at('name')}
          testId="review-name"
        />
        <TextField
          label="Tags (comma separated)"
          value={draft.tags}
          placeholder="round-1, jetty-vs-node"
          onChange={(v) => patch((d) => void (d.tags = v))}
          error={at('tags')}
          testId="review-tags"
        />
      </div>
      <details className="advanced">
        <summary>Thresholds and correlation header</summary>
        <TextField
          label="Correlation id header"
          value={draft.correlationHeader}
          onChange={(v) => patch((d) => void (d.correlationHeader = v))}
          error={at('correlationHeader')}
          testId="review-correlation-header"
        />
        {draft.thresholds.map((t, i) => (
          <div className="grid-4 row" key={i} data-testid={`threshold-${i}`}>
            <SelectField
              label="Metric"
              value={t.metric}
              options={THRESHOLD_METRICS.map((m) => ({ value: m, label: m }))}
              onChange={(v) => patch((d) => void (d.thresholds[i] && (d.thresholds[i].metric = v)))}
              testId={`threshold-${i}-metric`}
            />
            <SelectField
              label="Target"
              value={t.target}
              options={targetOptions}
              onChange={(v) => patch((d) => void (d.thresholds[i] && (d.thresholds[i].target = v)))}
              error={at(`thresholds.${i}.target`)}
              testId={`threshold-${i}-target`}
            />
            <SelectField
              label="Bound"
              value={t.bound}
              options={[
                { value: 'max', label: 'at most' },
                { value: 'min', label: 'at least' },
              ]}
              onChange={(v) => patch((d) => void (d.thresholds[i] && (d.thresholds[i].bound = v)))}
              testId={`threshold-${i}-bound`}
            />
            <div className="url-row">
              <NumberField
                className="grow"
                label={`Value (${unitOf(t.metric)})`}
                value={t.value}
                onChange={(v) => patch((d) => void (d.thresholds[i] && (d.thresholds[i].value = v)))}
                error={at(`thresholds.${i}.max`) ?? at(`thresholds.${i}.min`)}
                testId={`threshold-${i}-value`}
              />
              <Button
                variant="ghost"
                onClick={() => patch((d) => void d.thresholds.splice(i, 1))}
                aria-label={`Remove threshold ${i + 1}`}
              >
                ✕
              </Button>
            </div>
          </div>
        ))}
        <Button
          variant="ghost"
          onClick={() =>
            patch((d) => void d.thresholds.push({ metric: 'p99', target: '*', bound: 'max', value: 200 }))
          }
          data-testid="threshold-add"
        >
          Add threshold
        </Button>
      </details>

      {validation.list.length > 0 ? (
        <Banner kind="error" testId="review-issues">
          <p>Fix these before starting:</p>
          <ul>
            {validation.list.map((i, n) => (
              <li key={n}>
                <button type="button" className="link" onClick={() => goTo(stepOf(i.field))}>
                  {i.field || 'config'}
                </button>{' '}
                {i.message}
              </li>
            ))}
          </ul>
        </Banner>
      ) : null}

      {validation.config ? <RunInWords config={validation.config} /> : null}

      <Card
        title="Run config (YAML)"
        testId="review-yaml-card"
        actions={
          <>
            <Button
              onClick={() => download(`${slug(draft.name)}.cannonade.yaml`, yaml, 'application/yaml')}
              data-testid="review-save-template"
            >
              Save as template
            </Button>
            <Button onClick={() => fileRef.current?.click()} data-testid="review-load-template">
              Load template…
            </Button>
            <input
              ref={fileRef}
              type="file"
              accept=".yaml,.yml,.json"
              hidden
              data-testid="review-template-file"
              onChange={(e) => {
                const file = e.target.files?.[0]
                if (file) void handleLoad(file)
                e.target.value = ''
              }}
            />
          </>
        }
      >
        {loadError ? (
          <div className="field-error" role="alert">
            {loadError}
          </div>
        ) : null}
        <pre className="yaml" data-testid="review-yaml" tabIndex={0}>
          {yaml}
        </pre>
        <p className="muted">
          Run it from a terminal too: <code>cannonade run {slug(draft.name)}.cannonade.yaml</code>
        </p>
      </Card>

      <div className="actions start">
        <Button
          variant="primary"
          disabled={!validation.config}
          busy={start.busy}
          onClick={() => void start.run()}
          data-testid="wizard-start"
        >
          {validation.config?.sweep
            ? `Start the study (${validation.config.sweep.values.length * (validation.config.sweep.by?.values.length ?? 1)} runs)`
            : 'Start run'}
        </Button>
        {start.busy && stackLog.length ? (
          <pre className="stack-log" data-testid="wizard-stack-log">
            {stackLog.map((l) => `${l.stack}: ${l.line}`).join('\n')}
          </pre>
        ) : null}
        {start.error ? (
          <span className="field-error" role="alert" data-testid="wizard-start-error">
            {start.error}
            {startField ? (
              <>
                {' '}
                <button
                  type="button"
                  className="link"
                  onClick={() => goTo(stepOf(startField))}
                  data-testid="wizard-start-error-go"
                >
                  Go to {stepOf(startField)}
                </button>
              </>
            ) : null}
          </span>
        ) : null}
      </div>
    </div>
  )
}
