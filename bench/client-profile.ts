// The runner's V8 CPU profile for the client bench (bench/client.ts): what `node --cpu-prof` writes,
// taken through its inspector while it runs, and the self time by function (file:line) in it.
import { readdirSync, readlinkSync } from 'node:fs'
import { ROOT, RUNNER_WORKER, runnerPid } from './client-cpu.ts'

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]
  samples: number[]
  timeDeltas: number[]
}

/** Self time by function (file:line), from a .cpuprofile. */
export function selfTimes(p: CpuProfile): {
  total: number
  entries: { name: string; where: string; us: number; n: number }[]
} {
  const byId = new Map(p.nodes.map((n) => [n.id, n.callFrame]))
  const acc = new Map<string, { name: string; where: string; us: number; n: number }>()
  let total = 0
  p.samples.forEach((id, i) => {
    const f = byId.get(id)!
    const file = f.url.replace(/^file:\/\//, '').replace(ROOT, '')
    const where = file ? `${file}:${f.lineNumber + 1}` : ''
    const key = `${f.functionName}@${where}`
    const e = acc.get(key) ?? { name: f.functionName || '(anonymous)', where, us: 0, n: 0 }
    const dt = p.timeDeltas[i + 1] ?? 0
    e.us += dt
    e.n++
    total++
    acc.set(key, e)
  })
  return { total, entries: [...acc.values()].sort((a, b) => b.n - a.n) }
}

/** The runner's pid, once it is running. */
async function findRunner(deadlineMs: number): Promise<number | undefined> {
  const until = Date.now() + deadlineMs
  for (let pid = runnerPid(); Date.now() < until; pid = runnerPid()) {
    if (pid) return pid
    await new Promise((r) => setTimeout(r, 100))
  }
  return undefined
}

/** Whether process `pid` holds at least `n` sockets within `ms`. */
async function socketsOpen(pid: number, n: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    try {
      const fds = readdirSync(`/proc/${pid}/fd`)
      let sockets = 0
      for (const fd of fds) {
        try {
          if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) sockets++
        } catch {
          /* closed meanwhile */
        }
      }
      if (sockets >= n) return true
    } catch {
      return false // it ended
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return false
}

/** One DevTools-protocol session on an inspector's WebSocket: send a method, await its result. */
function devtools(url: string): Promise<{ call(method: string): Promise<unknown>; close(): void }> {
  const ws = new WebSocket(url)
  let id = 0
  const waiting = new Map<number, (r: unknown) => void>()
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data)) as { id?: number; result?: unknown }
    if (m.id !== undefined) waiting.get(m.id)?.(m.result)
  }
  return new Promise((resolve, reject) => {
    ws.onerror = () => reject(new Error(`inspector ${url}: connection failed`))
    ws.onopen = () =>
      resolve({
        call: (method) =>
          new Promise((res) => {
            waiting.set(++id, res)
            ws.send(JSON.stringify({ id, method }))
          }),
        close: () => ws.close(),
      })
  })
}

/**
 * The runner's CPU profile over most of its window. The runner gets a clean environment (no
 * NODE_OPTIONS: engine/env.ts), so its inspector is opened from outside (SIGUSR1, as `node
 * --inspect` would, on 127.0.0.1:9229) and the V8 profiler driven over the DevTools protocol.
 * `seconds` and `connections`: the run's window and connections.
 */
export async function profileRunner(
  seconds: number,
  connections: number,
): Promise<{ profile: CpuProfile; seconds: number } | string> {
  const pid = await findRunner(20_000)
  if (!pid) return 'the runner process was not found'
  // Past its start (modules, database): once its connections are open, until before its window ends.
  if (!(await socketsOpen(pid, connections, 30_000)))
    return `the runner did not open ${connections} connections`
  process.kill(pid, 'SIGUSR1')
  let ws: string | undefined
  for (let i = 0; i < 30 && !ws; i++) {
    await new Promise((r) => setTimeout(r, 100))
    const list = await fetch('http://127.0.0.1:9229/json/list').then(
      (r) => r.json() as Promise<{ url: string; webSocketDebuggerUrl: string }[]>,
      () => [],
    )
    ws = list.find((t) => t.url.includes(RUNNER_WORKER))?.webSocketDebuggerUrl
  }
  if (!ws) return 'the runner did not open its inspector on 127.0.0.1:9229 (port taken?)'
  const s = await devtools(ws)
  await s.call('Profiler.enable')
  await s.call('Profiler.start')
  const ms = Math.max(1, seconds - 3) * 1000
  await new Promise((r) => setTimeout(r, ms))
  const { profile } = (await s.call('Profiler.stop')) as { profile: CpuProfile }
  s.close()
  return { profile, seconds: ms / 1000 }
}
