// Start: the engine checks more than the schema (e.g. that each target accepts connections) and its
// answer names the field, so a refusal can send the user to the right step. While the engine
// starts the stacks the config names (before the run), their log shows here.
import { useState } from 'react'
import { ApiError } from '#engine/api/errors.ts'
import type { RunConfig } from '#engine/config/schema.ts'
import { useAction, useApi } from '../../../api/context.tsx'
import { navigate } from '../../../app/router.tsx'
import { Button } from '../../../ui/Primitives.tsx'
import { recordStartedStacks } from '../../live/startedStacks.ts'
import { stepOf, type StepId } from '../draft.ts'

function useStart(config: RunConfig | null) {
  const api = useApi()
  const [field, setField] = useState<string | null>(null)
  const [stackLog, setStackLog] = useState<{ stack: string; line: string }[]>([])
  const start = useAction(async () => {
    if (!config) return
    setField(null)
    setStackLog([])
    const started: string[] = []
    const off = api.stacks.onLog((e) => {
      if (/^(not running|running with)/.test(e.line)) started.push(e.stack)
      setStackLog((lines) => [...lines.slice(-200), { stack: e.stack, line: e.line }])
    })
    try {
      const { runId } = await api.runs.start(config)
      recordStartedStacks(runId, started)
      navigate(`/live/${runId}`)
    } catch (err) {
      if (err instanceof ApiError && err.field) setField(err.field)
      throw err
    } finally {
      off()
    }
  })
  return { start, field, stackLog }
}

function startLabel(config: RunConfig | null): string {
  if (!config?.sweep) return 'Start run'
  return `Start the study (${config.sweep.values.length * (config.sweep.by?.values.length ?? 1)} runs)`
}

export function StartRun({ config, goTo }: { config: RunConfig | null; goTo: (step: StepId) => void }) {
  const { start, field, stackLog } = useStart(config)
  return (
    <div className="actions start">
      <Button
        variant="primary"
        disabled={!config}
        busy={start.busy}
        onClick={() => void start.run()}
        data-testid="wizard-start"
      >
        {startLabel(config)}
      </Button>
      {start.busy && stackLog.length ? (
        <pre className="stack-log" data-testid="wizard-stack-log">
          {stackLog.map((l) => `${l.stack}: ${l.line}`).join('\n')}
        </pre>
      ) : null}
      {start.error ? (
        <span className="field-error" role="alert" data-testid="wizard-start-error">
          {start.error}
          {field ? (
            <>
              {' '}
              <button
                type="button"
                className="link"
                onClick={() => goTo(stepOf(field))}
                data-testid="wizard-start-error-go"
              >
                Go to {stepOf(field)}
              </button>
            </>
          ) : null}
        </span>
      ) : null}
    </div>
  )
}
