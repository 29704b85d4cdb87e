// A URL is enough (issue 28, Must 9): the first screen takes a URL, connections and seconds and
// starts, as `cannonade run URL -c N -d S` does (the same one-target config:
// engine/config/from-url.ts). A bad URL or number is named under the form; the run opens live.
import { useState, type FormEvent } from 'react'
import { QUICK_DEFAULTS, quickConfig } from '#engine/config/from-url.ts'
import { useAction, useApi } from '../api/context.tsx'
import { navigate } from '../app/router.tsx'
import { Button } from './Primitives.tsx'

export function QuickRun() {
  const api = useApi()
  const [url, setUrl] = useState('')
  const [connections, setConnections] = useState(String(QUICK_DEFAULTS.connections))
  const [seconds, setSeconds] = useState(String(QUICK_DEFAULTS.duration))
  const start = useAction(async () => {
    const { runId } = await api.runs.start(
      quickConfig({ url: url.trim(), connections: Number(connections), duration: Number(seconds) }),
    )
    navigate(`/live/${runId}`)
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (url.trim()) void start.run()
  }
  return (
    <form className="quick-run" onSubmit={submit} data-testid="quick-run">
      <label>
        URL
        <input
          type="url"
          value={url}
          placeholder="http://127.0.0.1:8080/"
          onChange={(e) => setUrl(e.target.value)}
          data-testid="quick-run-url"
        />
      </label>
      <CountInput
        label="Connections"
        value={connections}
        set={setConnections}
        testId="quick-run-connections"
      />
      <CountInput label="Seconds" value={seconds} set={setSeconds} testId="quick-run-seconds" />
      <Button
        type="submit"
        variant="primary"
        busy={start.busy}
        disabled={!url.trim()}
        data-testid="quick-run-start"
      >
        Start
      </Button>
      {start.error ? (
        <span className="field-error" role="alert" data-testid="quick-run-error">
          {start.error}
        </span>
      ) : null}
    </form>
  )
}

/** A count of at least 1 (connections, seconds), kept as typed: the run's config checks it. */
function CountInput(p: { label: string; value: string; set: (v: string) => void; testId: string }) {
  return (
    <label>
      {p.label}
      <input
        type="number"
        min={1}
        value={p.value}
        onChange={(e) => p.set(e.target.value)}
        data-testid={p.testId}
      />
    </label>
  )
}
