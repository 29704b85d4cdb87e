// What starting a run takes and gives back: the hooks that hear it, its options, and its handle.
// A run of one runner process (supervisor.ts) and a run of load agents (engine/agents/distributed.ts)
// answer with the same RunHandle, so the host, the CLI and the UI treat them alike.
import type {
  AgentsEvent,
  ProgressEvent,
  RunEndedEvent,
  RunSummary,
  RunWarningEvent,
  TargetRoundSummary,
} from '../api/types.ts'
import type { LedgerExpander } from '../ledger/expander.ts'
import type { ProcessRef } from '../store/owner.ts'
import type { AgentShare, EncodedSecond, EncodedSegment } from './protocol.ts'

export interface RunHooks {
  onStarted?(info: { runId: number; t0Epoch: number; pid: number }): void
  onProgress?(event: ProgressEvent): void
  onSegment?(summary: TargetRoundSummary): void
  onLog?(level: 'info' | 'warn' | 'error', message: string): void
  /** A monitor could not read its source (stored with the run too). */
  onWarning?(event: RunWarningEvent): void
  onEnded?(event: RunEndedEvent): void
  /** A run of load agents (engine/agents/): the agents as they join, get ready, end or are lost. */
  onAgents?(event: AgentsEvent): void
  /** Agent mode (RunOptions.agent): each second and segment as encoded statistics. */
  onEncodedSecond?(second: EncodedSecond): void
  onEncodedSegment?(segment: EncodedSegment, summary: TargetRoundSummary): void
  /** Agent mode: the segment's load started at `atMs` (wall clock, ms). */
  onSegmentStarted?(segment: number, atMs: number): void
}

/** A runner that runs one load agent's share of a run (engine/agents/agent.ts). */
export interface AgentRunOptions {
  share: AgentShare
  /** The run's prefix: every agent's ids are `<prefix>-<seq>`, their seqs partitioned by index. */
  correlationPrefix: string
  /** The runner waits at each segment's barrier: resolve with its release, or null to stop. */
  barrier(segment: number): Promise<{ atMs: number; startSecond: number } | null>
}

export interface RunOptions {
  /** Pin the runner process to this CPU (Linux taskset), so a target on another core is not disturbed. */
  cpu?: number
  /** How long a stop may take before the runner is killed. */
  stopGraceMs?: number
  /** A runner silent for this long (no progress, no heartbeat) is killed and the run aborted. */
  silenceMs?: number
  /** Cloud Foundry secrets for the targets' monitors (never stored in the config). */
  secrets?: Record<string, string>
  /** Start even while another run is going on this database (both runs then say so). */
  allowConcurrent?: boolean
  /** The process recorded as the run's owner (default: this one). */
  owner?: ProcessRef
  /** Expands the ended run's ledger blocks in the background (default: one of its own). */
  expander?: LedgerExpander
  /**
   * Leave the ledger in blocks (readers read them alike): a load agent that uploads its ledger
   * sends the blocks as they are, and `stored` resolves at the end.
   */
  keepBlocks?: boolean
  /** Run one agent's share of a distributed run (engine/agents/). */
  agent?: AgentRunOptions
  /** The Docker host setting: where docker monitors, stacks and the environment find Docker. */
  dockerHost?: string
  /** The secrets folder (settings.secretsDir): the only place a monitor's tokenFile may be. */
  secretsDir?: string
}

export interface RunHandle {
  runId: number
  correlationPrefix: string
  pid: number
  stop(): void
  /** Kill the runner outright (tests of crash handling use this). */
  kill(signal?: NodeJS.Signals): void
  /** The run's end: resolves as soon as the run is marked ended. */
  done: Promise<RunSummary>
  /** Resolves once the run's requests are all `samples` rows (after `done`). */
  stored: Promise<void>
}
