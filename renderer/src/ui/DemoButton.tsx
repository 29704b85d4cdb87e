// "Run the demo": a short run against the engine's embedded demo server, for a new user's first
// minute. The engine tells us the demo URL through settings (demoUrl); without it, say so.
import type { RunConfigInput } from '#engine/config/schema.ts'
import { useAction, useApi, useAsync } from '../api/context.tsx'
import { navigate } from '../app/router.tsx'
import { Button } from './Primitives.tsx'

export function readDemoUrl(settings: unknown): string | null {
  if (typeof settings !== 'object' || settings === null || !('demoUrl' in settings)) return null
  const url = settings.demoUrl
  return typeof url === 'string' && url !== '' ? url : null
}

/** The demo target's URL to load: its ads listing, as `cannonade run --demo` does. */
export function useDemoUrl(): string | null {
  const api = useApi()
  const settings = useAsync(() => api.settings.get(), [api])
  const base = readDemoUrl(settings.data)
  return base ? `${base.replace(/\/+$/, '')}/ads?limit=20` : null
}

export function demoConfig(url: string): RunConfigInput {
  return {
    version: 1,
    name: 'Demo run',
    targets: [{ name: 'demo', url }],
    load: { connections: 8, duration: 10 },
    cooldownSeconds: 0,
    tags: ['demo'],
  }
}

export function DemoButton({ variant = 'primary' }: { variant?: 'primary' | 'secondary' }) {
  const api = useApi()
  const demoUrl = useDemoUrl()
  const start = useAction(async (url: string) => {
    const { runId } = await api.runs.start(demoConfig(url))
    navigate(`/live/${runId}`)
  })
  return (
    <span className="demo-button">
      <Button
        variant={variant}
        busy={start.busy}
        disabled={!demoUrl}
        title={demoUrl ? `10 s, 8 connections against ${demoUrl}` : 'This engine offers no demo target'}
        onClick={() => demoUrl && void start.run(demoUrl)}
        data-testid="demo-run"
      >
        Run the demo (10 s)
      </Button>
      {start.error ? (
        <span className="field-error" role="alert">
          {start.error}
        </span>
      ) : null}
    </span>
  )
}
