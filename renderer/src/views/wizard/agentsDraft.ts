// The Load step's load generators: this machine (one process), or N load agents (engine/agents/)
// which become the config's `agents: { count, on }`. "other" is for agents a person (or a platform
// without a launcher) starts: the config's `on: external`, where the run waits at its barrier for
// them; the step shows the `cannonade agent` line each of them runs.
import type { AGENT_LAUNCHERS, AgentsConfig } from '#engine/config/schema.ts'
import type { Num } from './clean.ts'

type Launcher = (typeof AGENT_LAUNCHERS)[number]

/** A launcher by its name in the config; `external` (agents a person starts) is the "other" choice. */
export type GeneratorChoice = 'machine' | Exclude<Launcher, 'external'> | 'other'

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
  return { on: choiceOf(on), count, rest }
}

/** The choice for a config's launcher: agents a person starts (`external`) are "other". */
function choiceOf(on: Launcher | 'external'): GeneratorChoice {
  return on === 'external' ? 'other' : on
}

export function agentsInput(a: AgentsDraft): Record<string, unknown> | undefined {
  if (a.on === 'machine') return undefined
  return { ...a.rest, count: a.count, on: a.on === 'other' ? 'external' : a.on }
}

/** The run's agents that the step writes a line for; more are started the same way. */
export const LINES_SHOWN = 8

/**
 * What agent `index` runs to join a run that waits for its agents (`on: external`). The run's key
 * exists once the run does (`cannonade run … --on external` prints these lines with it); the
 * store's URL is read from a file, so its password never shows in a process list.
 */
export function agentLine(count: Num, index: number | string = 'INDEX'): string {
  return [
    'CANNONADE_RUN=<run key>',
    `CANNONADE_AGENT_COUNT=${count ?? '<count>'}`,
    `CANNONADE_AGENT_INDEX=${index}`,
    'CANNONADE_STORE_URL_FILE=/path/to/store-url',
    'cannonade agent',
  ].join(' ')
}

/** One line per agent, index 0 … count − 1 (at most LINES_SHOWN; one with INDEX for no count yet). */
export function agentLines(count: Num): string[] {
  const n = count !== undefined && Number.isInteger(count) && count >= 1 ? count : 0
  if (n === 0) return [agentLine(count)]
  return Array.from({ length: Math.min(n, LINES_SHOWN) }, (_, i) => agentLine(count, i))
}
