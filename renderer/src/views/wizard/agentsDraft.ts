// The Load step's load generators: this machine (one process), or N load agents (engine/agents/)
// started by a launcher, which become the config's `agents: { count, on }`. "other" is for agents
// a person or a platform without a launcher starts: the step shows the `cannonade agent` line.
import type { AGENT_LAUNCHERS, AgentsConfig } from '../../../../engine/config/schema.ts'
import type { Num } from './clean.ts'

/** `external` (agents a person starts) is the "other" choice. */
export type GeneratorChoice = 'machine' | Exclude<(typeof AGENT_LAUNCHERS)[number], 'external'> | 'other'

export const GENERATOR_CHOICES: readonly { value: GeneratorChoice; label: string }[] = [
  { value: 'machine', label: 'this machine' },
  { value: 'local', label: 'N processes' },
  { value: 'docker', label: 'Docker' },
  { value: 'swarm', label: 'Swarm' },
  { value: 'kubernetes', label: 'Kubernetes' },
  { value: 'other', label: 'other' },
]

/** Launchers whose agents reach the engine's PostgreSQL coordination store, not its embedded one. */
export function needsStoreUrl(on: GeneratorChoice): boolean {
  return on === 'docker' || on === 'swarm' || on === 'kubernetes' || on === 'other'
}

export interface AgentsDraft {
  on: GeneratorChoice
  count: Num
  /** The rest of a loaded config's `agents` (raw, barrier and loss limits): kept as it was. */
  rest: Omit<Partial<AgentsConfig>, 'count' | 'on'>
}

export function emptyAgents(): AgentsDraft {
  return { on: 'machine', count: 2, rest: {} }
}

export function agentsFromConfig(a: AgentsConfig | undefined): AgentsDraft {
  if (!a) return emptyAgents()
  const { count, on, ...rest } = a
  return { on: on === 'external' ? 'other' : on, count, rest }
}

export function agentsInput(a: AgentsDraft): Record<string, unknown> | undefined {
  if (a.on === 'machine' || a.on === 'other') return undefined
  return { ...a.rest, count: a.count, on: a.on }
}

/** What the schema cannot say: "other" has no launcher in the engine to wait for hand-started agents. */
export function agentsIssues(a: AgentsDraft): { field: string; message: string }[] {
  return a.on === 'other'
    ? [
        {
          field: 'agents.on',
          message:
            'agents started elsewhere need a launcher in the engine that waits for them, which this build does not have: pick one of the launchers, or start the run with `cannonade run` and paste the line below on each machine',
        },
      ]
    : []
}

/**
 * The line that starts agent `index` by hand. The run's key exists once the run does (the engine
 * logs it); the store's URL is read from a file so it never shows in a process list.
 */
export function agentLine(count: Num, index: number | string = '<index>'): string {
  return [
    'CANNONADE_RUN=<run key>',
    `CANNONADE_AGENT_COUNT=${count ?? '<count>'}`,
    `CANNONADE_AGENT_INDEX=${index}`,
    'CANNONADE_STORE_URL_FILE=/path/to/store-url',
    'cannonade agent',
  ].join(' ')
}
