// Target stacks: ready-made servers (node-http, java-jetty, …) launched with Docker or natively,
// with their logs streaming while they start, and a link that puts their URL into a new run.
import { useEffect, useState } from 'react'
import type { StackStatus } from '#engine/api/types.ts'
import { useAction, useApi, useAsync } from '../../api/context.tsx'
import { Link } from '../../app/router.tsx'
import { Banner, Button, Card, EmptyState, StatusBadge } from '../../ui/Primitives.tsx'
import { Ring } from '../../lib/ring.ts'

const LOG_LINES = 500

/** The last LOG_LINES lines per stack, from stacks.onLog, kept while the view is open. */
function useStackLogs(): Map<string, string[]> {
  const api = useApi()
  const [logs, setLogs] = useState<Map<string, string[]>>(new Map())
  useEffect(() => {
    const rings = new Map<string, Ring<string>>()
    let timer: ReturnType<typeof setTimeout> | null = null
    const off = api.stacks.onLog((e) => {
      let ring = rings.get(e.stack)
      if (!ring) {
        ring = new Ring<string>(LOG_LINES)
        rings.set(e.stack, ring)
      }
      ring.push(e.line)
      // Compose can print hundreds of lines a second; render at most 4 times a second.
      timer ??= setTimeout(() => {
        timer = null
        setLogs(new Map([...rings].map(([k, r]) => [k, r.toArray()])))
      }, 250)
    })
    return () => {
      off()
      if (timer) clearTimeout(timer)
    }
  }, [api])
  return logs
}

/** Launch (with Docker, or without) and Stop, which asks first: keep the database, or delete it too. */
function useStackControl(stack: StackStatus, onChanged: () => void) {
  const api = useApi()
  const [native, setNative] = useState(false)
  const up = useAction(async () => {
    await api.stacks.up(stack.name, { native })
    onChanged()
  })
  const [confirming, setConfirming] = useState(false)
  const down = useAction(async (volumes: boolean) => {
    await api.stacks.down(stack.name, { volumes })
    setConfirming(false)
    onChanged()
  })
  return { native, setNative, up, down, confirming, setConfirming, error: up.error ?? down.error }
}

type Control = ReturnType<typeof useStackControl>

function LaunchButtons({ c, id }: { c: Control; id: string }) {
  return (
    <>
      <label className="inline-label">
        <input
          type="checkbox"
          checked={c.native}
          onChange={(e) => c.setNative(e.target.checked)}
          data-testid={`${id}-native`}
        />{' '}
        without Docker
      </label>
      <Button variant="primary" busy={c.up.busy} onClick={() => void c.up.run()} data-testid={`${id}-up`}>
        Launch
      </Button>
    </>
  )
}

function StopButtons({ c, id, volumes }: { c: Control; id: string; volumes: boolean }) {
  if (!c.confirming)
    return (
      <Button
        variant="danger"
        busy={c.down.busy}
        onClick={() => c.setConfirming(true)}
        data-testid={`${id}-down`}
      >
        Stop
      </Button>
    )
  return (
    <>
      <Button
        variant="danger"
        busy={c.down.busy}
        onClick={() => void c.down.run(false)}
        data-testid={`${id}-down-keep`}
      >
        Stop, keep its database
      </Button>
      {volumes ? (
        <Button
          variant="danger"
          busy={c.down.busy}
          onClick={() => void c.down.run(true)}
          data-testid={`${id}-down-volumes`}
        >
          Stop and delete its database
        </Button>
      ) : null}
      <Button onClick={() => c.setConfirming(false)} data-testid={`${id}-down-cancel`}>
        Cancel
      </Button>
    </>
  )
}

/** What a stack is and where it runs: runtime, URL, limits, replicas, and its containers. */
function StackFacts({ stack }: { stack: StackStatus }) {
  return (
    <>
      <p>{stack.description}</p>
      <p className="muted" data-testid={`stack-${stack.name}-limits`}>
        {stack.runtime} · <code>{stack.url}</code> · limits: {stack.limits.cpus ?? 'no'} CPU,{' '}
        {stack.limits.memory ?? 'no'} memory
        {stack.replicas > 1 ? ` · ${stack.replicas} replicas behind a load balancer` : ''}
      </p>
      {stack.containers.length > 0 ? (
        <ul className="containers">
          {stack.containers.map((c) => (
            <li key={c.name}>
              <code>{c.name}</code> {c.state}
              {c.health ? ` (${c.health})` : ''}
              {c.cpus !== null || c.memory !== null
                ? ` · ${c.cpus ?? 'no'} CPU, ${c.memory ?? 'no'} memory`
                : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  )
}

function StackCard({
  stack,
  log,
  onChanged,
}: {
  stack: StackStatus
  log: string[] | undefined
  onChanged: () => void
}) {
  const c = useStackControl(stack, onChanged)
  const id = `stack-${stack.name}`
  const actions = (
    <>
      {stack.state !== 'down' ? (
        <StopButtons c={c} id={id} volumes={Boolean(stack.project)} />
      ) : (
        <LaunchButtons c={c} id={id} />
      )}
      <Link
        className="btn btn-secondary"
        to={`/new?url=${encodeURIComponent(stack.url)}&name=${encodeURIComponent(stack.name)}`}
        data-testid={`${id}-use`}
      >
        Use in a new run
      </Link>
    </>
  )
  const title = (
    <>
      {stack.name} <StatusBadge status={stack.state} />
    </>
  )
  return (
    <Card testId={id} title={title} actions={actions}>
      <StackFacts stack={stack} />
      {c.error ? <div className="field-error">{c.error}</div> : null}
      {log && log.length > 0 ? (
        <pre className="log" data-testid={`${id}-log`} tabIndex={0} aria-label={`${stack.name} log`}>
          {log.join('\n')}
        </pre>
      ) : null}
    </Card>
  )
}

export default function Stacks() {
  const api = useApi()
  const status = useAsync(() => api.stacks.status(), [api])
  const logs = useStackLogs()
  // While a stack starts, its state changes without an event: poll gently.
  const reload = status.reload
  const starting = (status.data ?? []).some((s) => s.state === 'starting')
  useEffect(() => {
    if (!starting) return
    const timer = setInterval(reload, 2000)
    return () => clearInterval(timer)
  }, [starting, reload])

  return (
    <section data-testid="stacks">
      <header className="view-head">
        <h1>Target stacks</h1>
        <Button onClick={status.reload} data-testid="stacks-refresh">
          Refresh
        </Button>
      </header>
      <p className="lead">
        Ready-made servers with the same API and their own PostgreSQL, to reproduce a "Java vs Node.js"
        comparison on this machine.
      </p>
      {status.error ? (
        <Banner kind="error" testId="stacks-error">
          Stacks are not available: {status.error}
        </Banner>
      ) : null}
      {status.data && status.data.length === 0 ? (
        <EmptyState title="No stacks found" testId="stacks-empty">
          <p>This installation has no target stacks. Point the wizard at your own servers instead.</p>
        </EmptyState>
      ) : null}
      {(status.data ?? []).map((s) => (
        <StackCard key={s.name} stack={s} log={logs.get(s.name)} onChanged={status.reload} />
      ))}
    </section>
  )
}
