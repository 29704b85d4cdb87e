// The embedded store over a local agent's IPC channel (CANNONADE_STORE_URL=ipc:): the agent calls
// the AgentStore operations as request/response messages with sequence numbers, and its parent
// (the coordinator) answers them from its MemoryStore. A release waits until the coordinator
// gives it, so the answer to `release` comes when the barrier opens.
import type { ChildProcess } from 'node:child_process'
import type { MemoryStore } from './memory.ts'
import { AgentRefused, type AgentStore } from './protocol.ts'

type Op = Exclude<keyof AgentStore, 'close'>
const OPS: readonly Op[] = [
  'join',
  'now',
  'clock',
  'heartbeat',
  'ready',
  'release',
  'started',
  'second',
  'segment',
  'upload',
  'finish',
]

interface Call {
  cannonade: 'agent-call'
  id: number
  op: Op
  arg: unknown
}

type Reply =
  | { cannonade: 'agent-reply'; id: number; ok: true; value: unknown }
  | { cannonade: 'agent-reply'; id: number; ok: false; error: string; refused: boolean }

function isCall(m: unknown): m is Call {
  if (typeof m !== 'object' || m === null) return false
  const c = m as Partial<Call>
  return c.cannonade === 'agent-call' && typeof c.id === 'number' && OPS.includes(c.op as Op)
}

function isReply(m: unknown): m is Reply {
  return typeof m === 'object' && m !== null && (m as Partial<Reply>).cannonade === 'agent-reply'
}

/** The agent's side: this process's IPC channel to the coordinator that forked it. */
export class IpcAgentStore implements AgentStore {
  private next = 0
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>()
  private readonly onMessage = (m: unknown) => {
    if (!isReply(m)) return
    const p = this.pending.get(m.id)
    if (!p) return
    this.pending.delete(m.id)
    if (m.ok) p.resolve(m.value)
    else p.reject(m.refused ? new AgentRefused(m.error) : new Error(m.error))
  }
  private readonly onDisconnect = () => {
    for (const p of this.pending.values())
      p.reject(new Error('the coordinator went away (IPC channel closed)'))
    this.pending.clear()
  }

  constructor() {
    if (!process.send)
      throw new Error('CANNONADE_STORE_URL=ipc: needs an IPC channel: start the agent with fork()')
    process.on('message', this.onMessage)
    process.on('disconnect', this.onDisconnect)
  }

  private call<T>(op: Op, arg?: unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (!process.connected) return reject(new Error('the coordinator went away (IPC channel closed)'))
      const id = this.next++
      this.pending.set(id, { resolve: (v) => resolve(v as T), reject })
      process.send!({ cannonade: 'agent-call', id, op, arg } satisfies Call)
    })
  }

  join: AgentStore['join'] = (hello) => this.call('join', hello)
  now: AgentStore['now'] = () => this.call('now')
  clock: AgentStore['clock'] = (offset) => this.call('clock', offset)
  heartbeat: AgentStore['heartbeat'] = () => this.call('heartbeat')
  ready: AgentStore['ready'] = (segment) => this.call('ready', segment)
  release: AgentStore['release'] = (segment) => this.call('release', segment)
  started: AgentStore['started'] = (arg) => this.call('started', arg)
  second: AgentStore['second'] = (second) => this.call('second', second)
  segment: AgentStore['segment'] = (arg) => this.call('segment', arg)
  upload: AgentStore['upload'] = (block) => this.call('upload', block)
  finish: AgentStore['finish'] = (end) => this.call('finish', end)

  async close(): Promise<void> {
    process.off('message', this.onMessage)
    process.off('disconnect', this.onDisconnect)
    // The open channel would keep this process alive: the agent is done with its coordinator.
    if (process.connected) process.disconnect()
  }
}

/** The coordinator's side: answer one forked agent's calls from the embedded store. */
export function serveIpc(child: ChildProcess, store: MemoryStore): void {
  const agent = store.connect()
  // Each operation takes the one argument its caller sent (the agent's side above is typed).
  type Arg<K extends Op> = Parameters<AgentStore[K]>[0]
  const ops: Record<Op, (arg: unknown) => Promise<unknown>> = {
    join: (a) => agent.join(a as Arg<'join'>),
    now: () => agent.now(),
    clock: (a) => agent.clock(a as Arg<'clock'>),
    heartbeat: () => agent.heartbeat(),
    ready: (a) => agent.ready(a as Arg<'ready'>),
    release: (a) => agent.release(a as Arg<'release'>),
    started: (a) => agent.started(a as Arg<'started'>),
    second: (a) => agent.second(a as Arg<'second'>),
    segment: (a) => agent.segment(a as Arg<'segment'>),
    upload: (a) => agent.upload(a as Arg<'upload'>),
    finish: (a) => agent.finish(a as Arg<'finish'>),
  }
  child.on('message', (m: unknown) => {
    if (!isCall(m)) return
    ops[m.op](m.arg).then(
      (value) => reply({ cannonade: 'agent-reply', id: m.id, ok: true, value }),
      (err: unknown) =>
        reply({
          cannonade: 'agent-reply',
          id: m.id,
          ok: false,
          error: err instanceof Error ? err.message : String(err),
          refused: err instanceof AgentRefused,
        }),
    )
  })
  function reply(r: Reply): void {
    if (child.connected) child.send(r)
  }
}
