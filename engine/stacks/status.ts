// How a stack runs now, as `stacks status`, the Stacks page and a sweep's restore see it: its state
// (down, starting, healthy, unhealthy, native), the URL it answers on, the limits Docker really
// applies, its containers, and the settings it runs with. `Stacks` (stacks.ts) picks the native or
// the compose side; the containers' facts come from containers.ts.
import type { StackInfo, StackStatus } from '../api/types.ts'
import { detectCompose } from './compose.ts'
import { composeVariables, type ComposeProject } from './compose-project.ts'
import {
  containerEnv,
  containerLimits,
  formatMemory,
  projectContainers,
  publishedAddress,
  type ContainerInfo,
} from './containers.ts'
import { loadManifest, type StackSpec } from './manifest.ts'

/** What the manifest says of a stack, for lists. */
export function info(s: StackSpec): StackInfo {
  const app = s.limits[s.appService] ?? null
  return {
    name: s.name,
    description: s.description,
    url: s.url,
    runtime: s.runtime,
    limits: { cpus: app?.cpus ?? null, memory: app?.memory ?? null },
  }
}

export function nativeStatus(s: StackSpec, url: string): StackStatus {
  // A native server runs with whatever the machine has: no limits.
  return {
    ...info(s),
    url,
    limits: { cpus: null, memory: null },
    state: 'native',
    project: null,
    replicas: 1,
    containers: [],
  }
}

/** Running app containers: none is down, one unhealthy makes it unhealthy, all healthy healthy. */
function stateOf(running: ContainerInfo[]): StackStatus['state'] {
  if (running.length === 0) return 'down'
  if (running.some((c) => c.health === 'unhealthy')) return 'unhealthy'
  return running.every((c) => c.health === 'healthy') ? 'healthy' : 'starting'
}

type LimitsById = Map<string, { cpus: number | null; memoryBytes: number | null }>

/** The project's containers, their limits, and the URL its balancer (or else its app) publishes. */
async function readProject(
  p: ComposeProject,
): Promise<{ containers: ContainerInfo[]; limits: LimitsById; url: string }> {
  const s = p.spec
  await detectCompose({ host: p.dockerHost })
  const containers = await projectContainers(p.project, p.dockerHost)
  const limits = await containerLimits(
    containers.map((c) => c.id),
    p.dockerHost,
  )
  const front = containers.find((c) => c.service === loadManifest().balancer.service && c.state === 'running')
  const app = containers.find((c) => c.service === s.appService && c.state === 'running')
  const address = (front ?? app) ? await publishedAddress((front ?? app)!.id, 8080, p.dockerHost) : null
  return { containers, limits, url: address ? `http://${address}` : s.url }
}

/** The compose project's status; without Docker (or an answer from it), `down`. */
export async function composeStatus(p: ComposeProject): Promise<StackStatus> {
  const s = p.spec
  let containers: ContainerInfo[] = []
  let limits: LimitsById = new Map()
  let url = s.url
  try {
    ;({ containers, limits, url } = await readProject(p))
  } catch {
    containers = []
  }
  const apps = containers.filter((c) => c.service === s.appService)
  const running = apps.filter((c) => c.state === 'running')
  const appLimits = apps[0] ? limits.get(apps[0].id) : undefined
  return {
    ...info(s),
    url,
    // What Docker applies, not what the manifest says: a stack started with other limits shows them.
    limits: appLimits
      ? { cpus: appLimits.cpus, memory: formatMemory(appLimits.memoryBytes) }
      : info(s).limits,
    state: stateOf(running),
    project: p.project,
    replicas: running.length,
    containers: containers.map((c) => ({
      name: c.name,
      service: c.service,
      state: c.state,
      health: c.health,
      cpus: limits.get(c.id)?.cpus ?? null,
      memory: formatMemory(limits.get(c.id)?.memoryBytes ?? null),
    })),
  }
}

/**
 * The settings a running compose project's app runs with, as the variables its compose files read:
 * the app container's environment, and the app's and database's CPU and memory limits.
 */
export async function composeSettings(p: ComposeProject): Promise<Record<string, string>> {
  const s = p.spec
  const containers = (await projectContainers(p.project, p.dockerHost)).filter((c) => c.state === 'running')
  const app = containers.find((c) => c.service === s.appService)
  const db = containers.find((c) => c.service === s.dbService)
  const known = new Set(composeVariables(s))
  const env: Record<string, string> = {}
  if (app) {
    for (const [k, v] of Object.entries(await containerEnv(app.id, p.dockerHost)))
      if (known.has(k)) env[k] = v
  }
  const limits = await containerLimits(
    [app?.id, db?.id].filter((x): x is string => x !== undefined),
    p.dockerHost,
  )
  const put = (cpuVar: string, memVar: string, id: string | undefined) => {
    const l = id ? limits.get(id) : undefined
    if (l?.cpus && known.has(cpuVar)) env[cpuVar] = String(l.cpus)
    const mem = formatMemory(l?.memoryBytes ?? null)
    if (mem && known.has(memVar)) env[memVar] = mem
  }
  put('CANNONADE_APP_CPUS', 'CANNONADE_APP_MEM', app?.id)
  put('CANNONADE_DB_CPUS', 'CANNONADE_DB_MEM', db?.id)
  return env
}
