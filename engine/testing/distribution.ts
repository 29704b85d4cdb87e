// A distributed run's `distribution` block as tests need it: agents whose raw ledgers were
// uploaded or kept (`--raw keep`) at a path, without running any agent.
import type { AgentReport, Distribution } from '../api/types.ts'

/** Agent `index`, its ledger at `path` (`host:/file` for one on another machine) with `rows`. */
export function agentReport(index: number, path: string, rows: number, uploaded: boolean): AgentReport {
  return {
    index,
    host: `agent-host-${index}`,
    pid: null,
    state: 'done',
    error: null,
    offsetMs: 0,
    offsetErrorMs: 0,
    startSkewMs: [0],
    lostAtSecond: null,
    requests: rows,
    errors: 0,
    throughput: 0,
    results: [],
    generator: { saturatedSeconds: 0, seconds: 1, saturated: false, peakCpu: 10, message: null },
    ledger: { path, rows, uploaded },
  }
}

/** The block of a run of `perAgent` started by launcher `on`. */
export function distributionOf(on: string, perAgent: AgentReport[]): Distribution {
  return {
    agents: perAgent.length,
    on,
    store: 'postgres',
    skewMs: 0,
    maxOffsetMs: 0,
    heartbeatMs: 500,
    lostAfterMs: 3000,
    warnings: [],
    perAgent,
  }
}
