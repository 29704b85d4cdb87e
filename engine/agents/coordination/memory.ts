// The embedded coordination store: the protocol of protocol.ts held in the coordinator's own
// memory, for agents on this machine (`cannonade run --agents N`), so a fresh machine needs no
// PostgreSQL. Local agents reach it over their IPC channel (ipc.ts); tests may bind an agent in
// process with connect(). Its clock is this process's wall clock.
import type { TargetRoundSummary } from '../../api/types.ts'
import {
  AgentRefused,
  type AgentEnd,
  type AgentHello,
  type AgentRow,
  type AgentSecondRow,
  type AgentSegmentRow,
  type AgentStore,
  type ClockOffset,
  type CoordinatorStore,
  type EncodedSecond,
  type EncodedSegment,
  type RawBlock,
  type Release,
  type RunSpec,
} from './protocol.ts'
import { Waiters } from './waiters.ts'

export function wallMs(): number {
  return performance.timeOrigin + performance.now()
}

interface Agent {
  row: Omit<AgentRow, 'heartbeatAgeMs'>
  seconds: AgentSecondRow[]
  segments: AgentSegmentRow[]
  /** How many of its seconds and segments take() handed out already. */
  secondsTaken: number
  segmentsTaken: number
}

export class MemoryStore implements CoordinatorStore {
  readonly kind = 'embedded'
  private spec: RunSpec | null = null
  private state: 'open' | 'stopping' | 'ended' = 'open'
  private readonly agentsByIndex = new Map<number, Agent>()
  private readonly releases = new Map<number, Release>()
  private readonly blocks: { index: number; block: RawBlock }[] = []
  private readonly waiters = new Waiters()
  private releaseWaiters: (() => void)[] = []

  async open(spec: RunSpec): Promise<void> {
    this.spec = spec
    this.state = 'open'
  }

  async now(): Promise<number> {
    return wallMs()
  }

  async agents(): Promise<AgentRow[]> {
    const now = wallMs()
    return [...this.agentsByIndex.values()]
      .map((a) => ({ ...a.row, heartbeatAgeMs: now - a.row.heartbeatAt }))
      .sort((a, b) => a.index - b.index)
  }

  async take(): Promise<{ seconds: AgentSecondRow[]; segments: AgentSegmentRow[] }> {
    const seconds: AgentSecondRow[] = []
    const segments: AgentSegmentRow[] = []
    for (const a of this.agentsByIndex.values()) {
      seconds.push(...a.seconds.slice(a.secondsTaken))
      segments.push(...a.segments.slice(a.segmentsTaken))
      a.secondsTaken = a.seconds.length
      a.segmentsTaken = a.segments.length
    }
    return { seconds, segments }
  }

  async allSeconds(segment: number): Promise<AgentSecondRow[]> {
    return [...this.agentsByIndex.values()].flatMap((a) =>
      a.seconds.filter((s) => s.second.segment === segment),
    )
  }

  async allSegments(): Promise<AgentSegmentRow[]> {
    return [...this.agentsByIndex.values()].flatMap((a) => a.segments)
  }

  async takeBlocks(): Promise<{ index: number; block: RawBlock }[]> {
    return this.blocks.splice(0)
  }

  async release(release: Release): Promise<void> {
    this.releases.set(release.segment, release)
    this.wakeReleases()
  }

  async stop(): Promise<void> {
    if (this.state === 'open') this.state = 'stopping'
    this.wakeReleases()
  }

  wait(ms: number): Promise<void> {
    return this.waiters.wait(ms)
  }

  async close(opts: { purge: boolean }): Promise<void> {
    this.state = 'ended'
    this.wakeReleases()
    if (opts.purge) {
      this.agentsByIndex.clear()
      this.blocks.length = 0
    }
  }

  /** An agent's side of this store, for an agent in this process or behind an IPC channel. */
  connect(): AgentStore {
    let me: Agent | null = null
    const agent = (): Agent => {
      if (!me) throw new Error('join the run first')
      return me
    }
    const news = () => this.notify()
    const store: AgentStore = {
      join: async (hello) => {
        me = this.join(hello)
        return this.spec!
      },
      now: async () => wallMs(),
      clock: async (offset: ClockOffset) => {
        agent().row.clock = offset
      },
      heartbeat: async () => {
        agent().row.heartbeatAt = wallMs()
        return { stop: this.state !== 'open' }
      },
      ready: async (segment: number) => {
        const a = agent()
        a.row.readySegment = segment
        a.row.state = 'ready'
        news()
      },
      release: (segment: number) => this.waitRelease(segment),
      started: async ({ segment, atMs }) => {
        const a = agent()
        a.row.starts[segment] = atMs
        a.row.state = 'running'
        news()
      },
      second: async (second: EncodedSecond) => {
        const a = agent()
        // A second sent again (revised at the window's end) replaces the one before.
        const i = a.seconds.findIndex((r) => r.second.segment === second.segment && r.second.t === second.t)
        if (i >= 0) a.seconds[i] = { index: a.row.index, second }
        else a.seconds.push({ index: a.row.index, second })
        news()
      },
      segment: async ({ segment, summary }: { segment: EncodedSegment; summary: TargetRoundSummary }) => {
        const a = agent()
        a.segments.push({ index: a.row.index, segment, summary })
        news()
      },
      upload: async (block: RawBlock) => {
        this.blocks.push({ index: agent().row.index, block })
      },
      finish: async (end: AgentEnd) => {
        const a = agent()
        a.row.end = end
        a.row.state = end.state
        news()
      },
      close: async () => {},
    }
    return store
  }

  private join(hello: AgentHello & { runKey: string }): Agent {
    const spec = this.spec
    if (!spec || hello.runKey !== spec.runKey) {
      throw new AgentRefused(`run ${hello.runKey} is not open on this coordinator`)
    }
    if (this.state !== 'open')
      throw new AgentRefused(`run ${spec.runKey} has ended; agents may no longer join it`)
    checkHello(hello, spec)
    const prev = this.agentsByIndex.get(hello.index)
    if (prev) throw duplicate(hello.index, spec.runKey, prev.row)
    const now = wallMs()
    const a: Agent = {
      row: {
        index: hello.index,
        host: hello.host,
        pid: hello.pid,
        ledger: hello.ledger,
        state: 'joined',
        readySegment: -1,
        clock: null,
        heartbeatAt: now,
        starts: {},
        end: null,
      },
      seconds: [],
      segments: [],
      secondsTaken: 0,
      segmentsTaken: 0,
    }
    this.agentsByIndex.set(hello.index, a)
    this.notify()
    return a
  }

  private async waitRelease(segment: number): Promise<Release | null> {
    for (;;) {
      const r = this.releases.get(segment)
      if (r) return r
      if (this.state !== 'open') return null
      await new Promise<void>((resolve) => this.releaseWaiters.push(resolve))
    }
  }

  private wakeReleases(): void {
    for (const w of this.releaseWaiters.splice(0)) w()
    this.notify()
  }

  private notify(): void {
    this.waiters.wakeAll()
  }
}

/** The checks every store makes before an agent may claim its index. */
export function checkHello(hello: AgentHello, spec: RunSpec): void {
  if (hello.count !== spec.agents) {
    throw new AgentRefused(
      `agent ${hello.index} was started for ${hello.count} agents, but run ${spec.runKey} has ${spec.agents}`,
    )
  }
  if (!Number.isInteger(hello.index) || hello.index < 0 || hello.index >= spec.agents) {
    throw new AgentRefused(
      `agent index ${hello.index} is outside 0…${spec.agents - 1} for run ${spec.runKey}`,
    )
  }
}

export function duplicate(index: number, runKey: string, prev: { host: string; pid: number }): AgentRefused {
  return new AgentRefused(
    `agent index ${index} already joined run ${runKey} (host ${prev.host}, pid ${prev.pid}); an index joins a run once, so a restarted agent does not double the load`,
  )
}
