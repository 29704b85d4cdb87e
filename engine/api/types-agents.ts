// Load agents of a distributed run: what the run keeps of each agent, the distribution as a whole,
// and each agent's live state.
import type { GeneratorHealth } from './types-stats.ts'

/** One load agent of a distributed run, as the run keeps it (engine/agents/). */
export interface AgentReport {
  index: number
  host: string
  pid: number | null
  /** done, stopped, failed; lost: no heartbeat for `lostAfterMs`; missing: never reached the barrier. */
  state: 'done' | 'stopped' | 'failed' | 'lost' | 'missing'
  error: string | null
  /** The coordination store's clock minus the agent's (ms), and the uncertainty (half the best round trip). */
  offsetMs: number | null
  offsetErrorMs: number | null
  /** Per segment (run order): how much later than the release the agent's load started, ms. */
  startSkewMs: (number | null)[]
  /** When it was lost: the run second of its last heartbeat. */
  lostAtSecond: number | null
  /** Its own totals over the run's segments. */
  requests: number
  errors: number
  throughput: number
  /** Its own figures per target and round (latency in µs). */
  results: {
    target: string
    round: number
    requests: number
    errors: number
    throughput: number
    p50: number
    p99: number
  }[]
  /** Its generator's CPU, judged on its own. */
  generator: GeneratorHealth
  /** Where its raw per-request ledger is: its local SQLite file, and whether it was uploaded here. */
  ledger: { path: string; rows: number; uploaded: boolean }
}

export interface Distribution {
  agents: number
  /** The launcher: local processes, Docker, Swarm, Kubernetes… */
  on: string
  store: 'embedded' | 'postgres'
  /** Largest spread of the agents' start times in any segment (ms). */
  skewMs: number
  /** Largest clock offset of any agent to the store (ms, absolute). */
  maxOffsetMs: number
  heartbeatMs: number
  lostAfterMs: number
  warnings: string[]
  perAgent: AgentReport[]
}

/**
 * How a person starts the agents of a run that waits for them (`agents.on: external`): each of
 * them runs `command` with INDEX replaced by its index, 0 … count − 1.
 */
export interface AgentJoin {
  runKey: string
  count: number
  /** A shell command line; the store's password in it is masked (`passwordMasked`). */
  command: string
  /** The starter supplies the URL's password, or CANNONADE_STORE_URL_FILE naming a file with the URL. */
  passwordMasked: boolean
  /** Agents that have not joined and reached the barrier by then fail the run, named. */
  timeoutSeconds: number
}

/** One agent in the live view of a distributed run. */
export interface AgentLive {
  index: number
  host: string
  pid: number
  state: 'joined' | 'ready' | 'running' | 'done' | 'stopped' | 'failed' | 'lost'
  offsetMs: number | null
  /** Requests it completed in the second just merged. */
  requests: number
  generatorCpu: number | null
  heartbeatAgeMs: number
}
