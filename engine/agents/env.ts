// The agent's environment contract (README.md): what any launcher sets so that `cannonade agent`
// knows its index, the agent count, its run and where the coordination store is. The store's URL
// carries a password, so it comes from the environment or a secret file, never from argv (which
// every user of the machine can read in the process list).
import { FileRefused, readRegularFile } from '../config/files.ts'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Where the index comes from, first match wins. A Swarm replicated job's slots count from 0
 * (swarm.ts SWARM_SLOT_TEMPLATE: {{.Task.Slot}} alone renders slot 0 as the node's ID).
 */
export const INDEX_VARIABLES = [
  'CANNONADE_AGENT_INDEX',
  'JOB_COMPLETION_INDEX',
  'CF_INSTANCE_INDEX',
  'NOMAD_ALLOC_INDEX',
  'CANNONADE_AGENT_SLOT',
] as const

export const ENV = {
  run: 'CANNONADE_RUN',
  count: 'CANNONADE_AGENT_COUNT',
  storeUrl: 'CANNONADE_STORE_URL',
  storeUrlFile: 'CANNONADE_STORE_URL_FILE',
  data: 'CANNONADE_AGENT_DATA',
  host: 'CANNONADE_AGENT_HOST',
} as const

/** The embedded store, reached over the IPC channel of an agent forked by its coordinator. */
export const IPC_STORE = 'ipc:'

export interface AgentEnv {
  index: number
  /** The variable the index was read from. */
  indexFrom: (typeof INDEX_VARIABLES)[number]
  count: number
  runKey: string
  /** postgres://… or ipc: (never shown: it may hold a password). */
  storeUrl: string
  /** The directory of the agent's local ledger (SQLite). */
  dataDir: string
  host: string
}

export class AgentEnvError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'AgentEnvError'
  }
}

function whole(name: string, text: string, min: number): number {
  const n = Number(text.trim())
  if (text.trim() === '' || !Number.isInteger(n) || n < min) {
    throw new AgentEnvError(`${name}="${text}" is not a whole number from ${min}`)
  }
  return n
}

/** Read the contract from `env`; an AgentEnvError names the variable that is missing or wrong. */
export function readAgentEnv(env: NodeJS.ProcessEnv = process.env): AgentEnv {
  const from = INDEX_VARIABLES.find((v) => env[v] !== undefined && env[v] !== '')
  if (!from) {
    throw new AgentEnvError(
      `no agent index: set one of ${INDEX_VARIABLES.join(', ')} (launchers set it per agent)`,
    )
  }
  const index = whole(from, env[from]!, 0)
  const countText = env[ENV.count]
  if (countText === undefined) throw new AgentEnvError(`${ENV.count} is not set (the run's number of agents)`)
  const count = whole(ENV.count, countText, 1)
  if (index >= count)
    throw new AgentEnvError(`${from}=${index} is outside 0…${count - 1} (${ENV.count}=${count})`)
  const runKey = env[ENV.run] ?? ''
  if (!/^[0-9a-f]{16}$/.test(runKey)) {
    throw new AgentEnvError(
      `${ENV.run} must be the run's key (16 hex digits)${runKey ? '' : ': it is not set'}`,
    )
  }
  let storeUrl = env[ENV.storeUrl]
  const file = env[ENV.storeUrlFile]
  if (!storeUrl && file) {
    try {
      // A mounted secret: a regular file of a URL's size, never a FIFO or device read for ever.
      storeUrl = readRegularFile(file, 64 * 1024)
        .toString('utf8')
        .trim()
    } catch (err) {
      const why =
        err instanceof FileRefused
          ? err.reason === 'missing'
            ? 'ENOENT'
            : err.message.slice(file.length + 1)
          : String(err)
      throw new AgentEnvError(`${ENV.storeUrlFile}: cannot read ${file} (${why})`)
    }
  }
  if (!storeUrl)
    throw new AgentEnvError(`set ${ENV.storeUrl} or ${ENV.storeUrlFile} (the coordination store)`)
  if (storeUrl !== IPC_STORE && !/^postgres(ql)?:\/\//.test(storeUrl)) {
    throw new AgentEnvError(
      `${ENV.storeUrl} must be a postgres:// URL (or ${IPC_STORE} for an agent forked by its engine)`,
    )
  }
  return {
    index,
    indexFrom: from,
    count,
    runKey,
    storeUrl,
    dataDir: env[ENV.data] || join(tmpdir(), `cannonade-agent-${runKey}-${index}`),
    host: env[ENV.host] || hostname(),
  }
}

/**
 * The environment every agent of a run gets. A launcher adds each agent's index (or lets the
 * platform do it: Kubernetes, Cloud Foundry, Nomad, Swarm) and the store's URL or secret file.
 */
export function agentEnv(run: { runKey: string; count: number }): Record<string, string> {
  return { [ENV.run]: run.runKey, [ENV.count]: String(run.count) }
}
