// What Docker says about a stack's containers: which run, their health, the CPU and memory limits
// they really run with (HostConfig), their published ports, and who holds a host port. Every call
// goes through the docker CLI with a time limit, as compose itself does.
import type { DockerHost } from '../monitor/docker-host.ts'
import { failureText, run } from './compose.ts'

const TIMEOUT_MS = 20_000

export interface ContainerInfo {
  id: string
  name: string
  /** The compose service (app, db, lb). */
  service: string
  state: string
  health: string | null
}

export interface Limits {
  /** Cores (NanoCpus / 1e9, or CpuQuota / CpuPeriod); null = no limit. */
  cpus: number | null
  memoryBytes: number | null
}

/** `host`: the Docker host setting (engine/monitor/docker-host.ts); unset, DOCKER_HOST or the default. */
async function docker(args: string[], host: DockerHost): Promise<string[]> {
  const r = await run('docker', args, {
    timeoutMs: TIMEOUT_MS,
    ...(host ? { env: { DOCKER_HOST: host } } : {}),
  })
  if (r.code !== 0)
    throw new Error(
      `docker ${args[0]} failed (${r.timedOut ? 'timed out' : `exit ${r.code}`}): ${failureText(r, `docker ${args[0]}`, TIMEOUT_MS, 3).replaceAll('\n', ' ')}`,
    )
  return r.lines
}

/** The containers of a compose project, stopped ones included, ordered by service and name. */
export async function projectContainers(project: string, host?: DockerHost): Promise<ContainerInfo[]> {
  const lines = await docker(
    [
      'ps',
      '-a',
      '--filter',
      `label=com.docker.compose.project=${project}`,
      '--format',
      '{{.ID}}\t{{.Names}}\t{{.State}}\t{{.Status}}\t{{.Label "com.docker.compose.service"}}',
    ],
    host,
  )
  return lines
    .map((l) => {
      const [id = '', name = '', state = '', status = '', service = ''] = l.split('\t')
      const health = /\((healthy|unhealthy|health: starting)\)/.exec(status)?.[1] ?? null
      return { id, name, service, state, health }
    })
    .sort(
      (a, b) => a.service.localeCompare(b.service) || a.name.localeCompare(b.name, 'en', { numeric: true }),
    )
}

/** The limits each container runs with, by container id (as given). */
export async function containerLimits(
  ids: readonly string[],
  host?: DockerHost,
): Promise<Map<string, Limits>> {
  const out = new Map<string, Limits>()
  if (ids.length === 0) return out
  const lines = await docker(
    [
      'inspect',
      '--format',
      '{{.HostConfig.NanoCpus}} {{.HostConfig.CpuQuota}} {{.HostConfig.CpuPeriod}} {{.HostConfig.Memory}}',
      ...ids,
    ],
    host,
  )
  lines.forEach((line, i) => {
    const [nano = 0, quota = 0, period = 0, memory = 0] = line.split(' ').map(Number)
    const cpus = nano > 0 ? nano / 1e9 : quota > 0 ? quota / (period > 0 ? period : 100_000) : null
    out.set(ids[i]!, { cpus, memoryBytes: memory > 0 ? memory : null })
  })
  return out
}

/** A container's environment as it runs (Config.Env), by variable name. */
export async function containerEnv(id: string, host?: string): Promise<Record<string, string>> {
  const [line = '[]'] = await docker(['inspect', '--format', '{{json .Config.Env}}', id], host)
  const out: Record<string, string> = {}
  for (const entry of (JSON.parse(line) as string[] | null) ?? []) {
    const eq = entry.indexOf('=')
    if (eq > 0) out[entry.slice(0, eq)] = entry.slice(eq + 1)
  }
  return out
}

/** The host address a container's port is published on ("127.0.0.1:32768"), or null. */
export async function publishedAddress(
  id: string,
  containerPort: number,
  host?: DockerHost,
): Promise<string | null> {
  const lines = await docker(['port', id, `${containerPort}/tcp`], host).catch(() => [])
  return lines.find((l) => /^127\.0\.0\.1:\d+$/.test(l.trim()))?.trim() ?? lines[0]?.trim() ?? null
}

/** Containers publishing a host port, with their compose project (to say who holds it). */
export async function portHolders(
  port: number,
  host?: DockerHost,
): Promise<{ name: string; project: string }[]> {
  const lines = await docker(
    ['ps', '--filter', `publish=${port}`, '--format', '{{.Names}}\t{{.Label "com.docker.compose.project"}}'],
    host,
  ).catch(() => [])
  return lines.map((l) => {
    const [name = '', project = ''] = l.split('\t')
    return { name, project }
  })
}

/** "512m", "1g", "1536k": how compose files and the manifest write memory. */
export function formatMemory(bytes: number | null): string | null {
  if (bytes === null) return null
  for (const [unit, size] of [
    ['g', 1024 ** 3],
    ['m', 1024 ** 2],
    ['k', 1024],
  ] as const) {
    if (bytes % size === 0) return `${bytes / size}${unit}`
  }
  return String(bytes)
}
