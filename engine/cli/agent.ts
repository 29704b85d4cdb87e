// `cannonade agent`: one load agent's share of a run, then exit (engine/agents/README.md). It
// takes no arguments: a launcher (the engine's own, Docker, Swarm, a Kubernetes Indexed Job, or
// a person) gives it everything in its environment, the store's URL included, never on argv.
// An agent opens no history database and serves no Api: it is one share of a run that the engine
// which started it coordinates, so it calls the agent runtime directly rather than the host.
// Exit codes: 0 its share ran to the end, 1 it failed or was stopped, 2 refused (bad environment,
// an index that joined before, an unknown run).
import { runAgent } from '../agents/agent.ts'
import { AgentEnvError, IPC_STORE, readAgentEnv } from '../agents/env.ts'
import { AgentRefused, type AgentStore } from '../agents/coordination/protocol.ts'
import { helpText, parseFlags } from './args.ts'
import { reportError } from './common.ts'
import type { CliCommand, CliContext } from './context.ts'

export const AGENT_USAGE = helpText(
  `usage: cannonade agent      (everything comes from the environment)
  CANNONADE_RUN             the run's key (the engine that starts the run logs and sets it)
  CANNONADE_AGENT_COUNT     how many agents the run has
  CANNONADE_AGENT_INDEX     this agent's index 0…count-1, or JOB_COMPLETION_INDEX (Kubernetes),
                            CF_INSTANCE_INDEX (Cloud Foundry), NOMAD_ALLOC_INDEX (Nomad),
                            CANNONADE_AGENT_SLOT (a Swarm replicated job's slot, from 0)
  CANNONADE_STORE_URL       the coordination store, postgres://… (or CANNONADE_STORE_URL_FILE:
                            a file holding it, e.g. a mounted secret)
  CANNONADE_AGENT_DATA      where the agent keeps its raw ledger (default: a temporary folder)
  CANNONADE_AGENT_HOST      the name the run shows for this agent (default: the host name)`,
  {},
)

export async function agentCommand(argv: string[], ctx: CliContext): Promise<number> {
  let store: AgentStore | null = null
  try {
    const { positional } = parseFlags(argv, {})
    if (positional.length) throw new AgentEnvError('cannonade agent takes no arguments: set its environment')
    const env = readAgentEnv(process.env)
    if (env.storeUrl === IPC_STORE) {
      const { IpcAgentStore } = await import('../agents/coordination/ipc.ts')
      store = new IpcAgentStore()
    } else {
      const { PgAgentStore } = await import('../agents/coordination/pg-agent.ts')
      store = new PgAgentStore(env.storeUrl)
    }
    const result = await runAgent({ env, store, log: (line) => ctx.stderr.write(`${line}\n`) })
    return result.state === 'done' ? 0 : 1
  } catch (err) {
    if (err instanceof AgentEnvError || err instanceof AgentRefused) {
      ctx.stderr.write(`cannonade agent: ${err.message}\n`)
      await store?.close().catch(() => {})
      return 2
    }
    return reportError(err, ctx, AGENT_USAGE, 'cannonade agent')
  }
}

export const agentCli: CliCommand = { help: AGENT_USAGE, run: agentCommand }
