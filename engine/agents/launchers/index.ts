// The launcher `agents.on` names. Local processes, Docker containers, a Docker Swarm job and a
// Kubernetes Indexed Job are built in, and `external` for agents a person starts; a launcher for
// another platform implements the Launcher interface of launcher.ts and is added here.
import { ApiError } from '../../api/errors.ts'
import type { AgentLauncher } from '../../config/schema.ts'
import { KubernetesLauncher } from './kubernetes.ts'
import { DockerLauncher, type ContainerLauncherOptions } from './docker.ts'
import { ExternalLauncher } from './external.ts'
import type { Launcher } from './launcher.ts'
import { LocalLauncher } from './local.ts'
import { MemoryStore } from '../coordination/memory.ts'
import type { CoordinatorStore } from '../coordination/protocol.ts'
import { SwarmLauncher } from './swarm.ts'

export interface LauncherContext {
  store: CoordinatorStore
  /** Local agents: the CPU of each (taskset), or undefined when they are not pinned. */
  cpus: number[] | undefined
  /** Where local agents keep their raw ledgers. */
  dataDir: string
  /** The PostgreSQL store's URL, for agents that reach it (never put on a command line). */
  storeUrl: string | undefined
  /** CANNONADE_AGENT_IMAGE, CANNONADE_AGENT_NETWORK (README.md "Launchers"); default: ours. */
  env?: NodeJS.ProcessEnv
}

/** Docker and Swarm agents: the store, and the image and network the environment may name. */
function containerOptions(ctx: LauncherContext, on: AgentLauncher): ContainerLauncherOptions {
  if (!ctx.storeUrl) {
    throw new ApiError(
      'bad-input',
      `agents.on ${on}: set CANNONADE_STORE_URL (the coordination store)`,
      'agents.on',
    )
  }
  const env = ctx.env ?? process.env
  return {
    storeUrl: ctx.storeUrl,
    ...(env.CANNONADE_AGENT_IMAGE ? { image: env.CANNONADE_AGENT_IMAGE } : {}),
    ...(env.CANNONADE_AGENT_NETWORK ? { network: env.CANNONADE_AGENT_NETWORK } : {}),
  }
}

export function createLauncher(on: AgentLauncher, ctx: LauncherContext): Launcher {
  switch (on) {
    case 'local':
      return new LocalLauncher({
        ...(ctx.store instanceof MemoryStore ? { embedded: ctx.store } : { storeUrl: ctx.storeUrl }),
        cpus: ctx.cpus,
        dataDir: ctx.dataDir,
      })
    case 'kubernetes':
      return kubernetesLauncher(ctx.storeUrl)
    case 'docker':
      return new DockerLauncher(containerOptions(ctx, on))
    case 'swarm':
      return new SwarmLauncher(containerOptions(ctx, on))
    case 'external':
      return new ExternalLauncher()
    default: {
      // Every launcher the schema accepts is handled: a new one fails the typecheck here.
      const missing: never = on
      throw new ApiError('unavailable', `agents.on ${String(missing)}: no such launcher`, 'agents.on')
    }
  }
}

/**
 * An Indexed Job in the cluster of the user's kubeconfig. Its image and namespace come from the
 * environment (CANNONADE_AGENT_IMAGE, CANNONADE_KUBERNETES_NAMESPACE), as the store's URL does.
 */
function kubernetesLauncher(storeUrl: string | undefined, env = process.env): Launcher {
  if (!storeUrl)
    throw new ApiError(
      'bad-input',
      "agents.on kubernetes: set CANNONADE_STORE_URL (the agents' store)",
      'agents.on',
    )
  try {
    return new KubernetesLauncher({
      storeUrl,
      ...(env.CANNONADE_AGENT_IMAGE ? { image: env.CANNONADE_AGENT_IMAGE } : {}),
      ...(env.CANNONADE_KUBERNETES_NAMESPACE ? { namespace: env.CANNONADE_KUBERNETES_NAMESPACE } : {}),
    })
  } catch (err) {
    throw new ApiError(
      'unavailable',
      `agents.on kubernetes: ${err instanceof Error ? err.message : String(err)}`,
      'agents.on',
    )
  }
}
