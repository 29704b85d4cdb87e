// An agent's side of its coordination store once it has joined (agent.ts): the heartbeat that hears
// a stop, the rows it sends (in order, one at a time, each offered three times), and its clock
// against the store's, so a release instant becomes a time this machine sleeps until.
import { wallMs } from './coordination/memory.ts'
import type { AgentStore, ClockOffset, RunSpec } from './coordination/protocol.ts'

/** How many times a row is offered to the store before the agent gives up on it (and says so). */
const ATTEMPTS = 3

export class AgentLink {
  /** What could not be sent, named: the agent's end reports it, nothing is hidden. */
  readonly lost: string[] = []
  private readonly store: AgentStore
  private readonly spec: RunSpec
  private readonly offset: ClockOffset
  private readonly clock: () => number
  private readonly log: (line: string) => void
  private readonly me: string
  private readonly heartbeat: NodeJS.Timeout
  private queue = Promise.resolve()
  private stopRequested = false
  private onStop: () => void = () => {}
  private lastContact = wallMs()

  constructor(o: {
    store: AgentStore
    spec: RunSpec
    offset: ClockOffset
    clock: () => number
    log: (line: string) => void
    me: string
  }) {
    this.store = o.store
    this.spec = o.spec
    this.offset = o.offset
    this.clock = o.clock
    this.log = o.log
    this.me = o.me
    this.heartbeat = setInterval(() => this.beat(), o.spec.heartbeatMs)
  }

  /** Whether the run asked this agent to stop (or it stopped itself, the store being unreachable). */
  get stopped(): boolean {
    return this.stopRequested
  }

  /** What stops the agent's load: called once, when a stop is heard (at once if it already was). */
  whenStopped(stop: () => void): void {
    this.onStop = stop
    if (this.stopRequested) stop()
  }

  /** The run stopped (or could not start) while the agent waited at a barrier. */
  markStopped(): void {
    this.stopRequested = true
  }

  /** Store clock ↔ this process's wall clock (what the runner process sleeps on). */
  toWall(storeMs: number): number {
    return wallMs() + (storeMs - this.offset.offsetMs - this.clock())
  }

  toStore(wall: number): number {
    return wall - wallMs() + this.clock() + this.offset.offsetMs
  }

  /** Send a row after those before it; a row the store refuses three times is named in `lost`. */
  send(what: string, fn: () => Promise<void>): void {
    this.queue = this.queue.then(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await fn()
        } catch (err) {
          if (attempt >= ATTEMPTS) {
            this.lost.push(what)
            this.log(
              `${this.me}: could not send ${what}: ${err instanceof Error ? err.message : String(err)}`,
            )
            return
          }
          await new Promise((r) => setTimeout(r, 200 * attempt))
        }
      }
    })
  }

  /** Resolves once every row handed to `send` so far is out (or named lost). */
  sent(): Promise<void> {
    return this.queue
  }

  close(): void {
    clearInterval(this.heartbeat)
  }

  private stopOnce(why: string): void {
    if (this.stopRequested) return
    this.stopRequested = true
    this.log(`${this.me}: ${why}`)
    this.onStop()
  }

  private beat(): void {
    this.store.heartbeat().then(
      ({ stop }) => {
        this.lastContact = wallMs()
        if (stop) this.stopOnce('the run was asked to stop')
      },
      (err: unknown) => {
        // Unreachable for as long as the coordinator waits before calling us lost: stop loading
        // the target, since our requests would no longer be counted.
        if (wallMs() - this.lastContact > this.spec.lostAfterMs)
          this.stopOnce(`the coordination store is unreachable (${String(err)}); stopping`)
      },
    )
  }
}
