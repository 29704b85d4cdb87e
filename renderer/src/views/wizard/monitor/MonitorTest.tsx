// The Test button of a monitor: the engine takes one sample now and says what it found (or why not).
import { useState } from 'react'
import { useApi } from '../../../api/context.tsx'
import { Button } from '../../../ui/Primitives.tsx'
import { monitorSpec, type MonitorDraft } from '../draft.ts'

type TestState = { state: 'idle' | 'busy' } | { state: 'done'; ok: boolean; message: string }

export function MonitorTest({
  monitor,
  disabled,
  id,
}: {
  monitor: MonitorDraft
  disabled: boolean
  id: string
}) {
  const api = useApi()
  const [test, setTest] = useState<TestState>({ state: 'idle' })
  const handleTest = async () => {
    setTest({ state: 'busy' })
    try {
      const r = await api.monitor.test(monitorSpec(monitor))
      setTest({
        state: 'done',
        ok: r.ok,
        message: `${r.message}${r.ok ? ` (${r.instances} instance${r.instances === 1 ? '' : 's'})` : ''}`,
      })
    } catch (err) {
      setTest({ state: 'done', ok: false, message: err instanceof Error ? err.message : String(err) })
    }
  }
  return (
    <div className="actions">
      <Button
        busy={test.state === 'busy'}
        disabled={disabled}
        onClick={() => void handleTest()}
        data-testid={`${id}-test`}
      >
        Test
      </Button>
      {test.state === 'done' ? (
        <span
          className={test.ok ? 'check-ok' : 'field-error'}
          role="status"
          data-testid={`${id}-test-result`}
        >
          {test.ok ? '✓ ' : '✗ '}
          {test.message}
        </span>
      ) : null}
    </div>
  )
}
