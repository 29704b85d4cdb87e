// A URL is enough (issue 28, Must 9): the first screen takes a URL, connections and seconds and
// starts, as `cannonade run URL -c N -d S` does (the same one-target config:
// engine/config/from-url.ts). A bad URL or number is named under the form; the run opens live.
import { useState, type FormEvent } from 'react'
import { QUICK_DEFAULTS, quickConfig } from '../../../engine/config/from-url.ts'
import { useAction, useApi } from '../api/context.tsx'
import { navigate } from '../app/router.tsx'
import { Button } from './Common.tsx'

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
      <label>
        Connections
        <input
          type="number"
          min={1}
          value={connections}
          onChange={(e) => setConnections(e.target.value)}
          data-testid="quick-run-connections"
        />
      </label>
      <label>
        Seconds
        <input
          type="number"
          min={1}
          value={seconds}
          onChange={(e) => setSeconds(e.target.value)}
          data-testid="quick-run-seconds"
        />
      </label>
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
