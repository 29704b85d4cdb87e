// A target's monitor that watches a bundled stack on another port than the target's URL (a
// template's java-tomcat monitor after the URL was changed to another server): the wizard asks
// whether to keep it, follow the target (the stack on the URL's port, or the local process that
// listens there) or remove it, instead of silently measuring another server's CPU and memory.
import type { StackStatus } from '#engine/api/types.ts'
import type { TargetDraft } from './draft.ts'

/** What the wizard knows of the bundled stacks: where each answers, its project and containers. */
export type StackPlace = Pick<StackStatus, 'name' | 'url' | 'project'> & {
  containers: readonly { name: string }[]
}

export type Follow = { kind: 'stack'; stack: string } | { kind: 'process'; port: number }

export interface MonitorQuestion {
  /** The stack the monitor watches, and the port it answers on. */
  stack: string
  stackPort: number
  /** Where the target's URL goes. */
  urlHost: string
  urlPort: number
  /** What following the target means; null when there is nothing to follow (a remote host). */
  follow: Follow | null
}

export type MonitorAnswer = 'keep' | 'follow' | 'remove'

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])

function parse(url: string): { host: string; port: number } | null {
  try {
    const u = new URL(url.trim())
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null
    return { host: u.hostname, port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)) }
  } catch {
    return null
  }
}

/** A monitor spec of the config (kept as it was in `more`) that names a stack, project or container. */
type Bound = { kind?: unknown; stack?: unknown; project?: unknown; container?: unknown }

/** The stack a spec watches, by its name, its compose project or one of its containers. */
function stackOf(spec: Bound, stacks: readonly StackPlace[]): StackPlace | null {
  if (typeof spec.stack === 'string') return stacks.find((s) => s.name === spec.stack) ?? null
  if (typeof spec.project === 'string') return stacks.find((s) => s.project === spec.project) ?? null
  if (typeof spec.container === 'string')
    return stacks.find((s) => s.containers.some((c) => c.name === spec.container)) ?? null
  return null
}

/** The edited monitor as the spec it stands for, as far as the stack it watches goes. */
function primary(t: TargetDraft): Bound | null {
  const m = t.monitor
  if (m.kind === 'docker') {
    const d = m.docker
    return d.by === 'stack'
      ? { stack: d.stack }
      : d.by === 'project'
        ? { project: d.project }
        : { container: d.container }
  }
  if (m.kind === 'postgres' && m.postgres.by === 'stack') return { stack: m.postgres.stack }
  return null
}

/** The bundled stack the target's monitors watch, if any. */
export function watchedStack(t: TargetDraft, stacks: readonly StackPlace[]): StackPlace | null {
  for (const spec of [primary(t), ...(t.monitor.more as Bound[])]) {
    const found = spec && typeof spec === 'object' ? stackOf(spec, stacks) : null
    if (found) return found
  }
  return null
}

/** The question to ask about this target's monitor, or null when it watches the target's server (or the user kept it). */
export function monitorQuestion(t: TargetDraft, stacks: readonly StackPlace[]): MonitorQuestion | null {
  const url = t.url.trim()
  if (t.monitor.keptFor === url) return null
  const target = parse(url)
  const watched = watchedStack(t, stacks)
  const at = watched ? parse(watched.url) : null
  if (!target || !watched || !at) return null
  const local = LOOPBACK.has(target.host)
  if (local && target.port === at.port) return null
  const onPort = stacks.find((s) => s.name !== watched.name && parse(s.url)?.port === target.port)
  return {
    stack: watched.name,
    stackPort: at.port,
    urlHost: target.host,
    urlPort: target.port,
    follow: !local
      ? null
      : onPort
        ? { kind: 'stack', stack: onPort.name }
        : { kind: 'process', port: target.port },
  }
}

/** Applies the user's answer to the target's monitors (the draft's copy, inside a patch). */
export function answerMonitorQuestion(
  t: TargetDraft,
  q: MonitorQuestion,
  answer: MonitorAnswer,
  stacks: readonly StackPlace[],
): void {
  const m = t.monitor
  const watchesOld = (spec: unknown) =>
    typeof spec === 'object' && spec !== null && stackOf(spec, stacks)?.name === q.stack
  if (answer === 'keep') {
    m.keptFor = t.url.trim()
    return
  }
  delete m.keptFor
  if (answer === 'remove' || !q.follow) {
    m.kind = 'none'
    m.more = m.more.filter((s) => !watchesOld(s))
    return
  }
  const follow = q.follow
  if (follow.kind === 'process') {
    m.kind = 'process'
    m.process = { ...m.process, by: 'port', port: follow.port }
    m.more = m.more.filter((s) => !watchesOld(s))
    return
  }
  // Another bundled stack: every monitor of the old one watches the new one instead.
  if (m.kind === 'docker' && watchesOld(primary(t)))
    m.docker = { ...m.docker, by: 'stack', stack: follow.stack, service: '' }
  if (m.kind === 'postgres' && m.postgres.by === 'stack') m.postgres.stack = follow.stack
  m.more = m.more.map((s) => {
    if (!watchesOld(s)) return s
    const rest = { ...(s as Record<string, unknown>) }
    for (const key of ['container', 'project', 'service']) delete rest[key]
    return { ...rest, stack: follow.stack }
  })
  if (t.stack?.name === q.stack) t.stack.name = follow.stack
}
