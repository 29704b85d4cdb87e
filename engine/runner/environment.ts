// The environment a run is measured in, gathered before its rows are written: the host, and what
// the report's environment section shows about each target (the container image and the CPU and
// memory limits it ran with for docker-monitored targets, or the bundled stack's limits). Asking
// docker is asynchronous and happens outside any database transaction.
import { cpus, hostname, platform, release } from 'node:os'
import { runCommand } from '../command.ts'
import { monitorsOf, type RunConfig } from '../config/schema.ts'
import { dockerEnv, type DockerHost } from '../monitor/docker-host.ts'
import { machineLoad } from '../monitor/machine.ts'
import type { StackLocator } from '../monitor/types.ts'
import type { EnvironmentInfo } from '../store/environment.ts'
import { APP_VERSION } from '../store/runs.ts'
import { redactUrl } from '../config/redact.ts'

export interface TargetEnvironment {
  name: string
  url: string
  monitor: unknown
  containers: { name: string; image: string; cpus: number | null; memoryBytes: number | null }[]
  stack: string | null
  /** For the report: the images and limits in words, when known. */
  image?: string
  limits?: string
}

/** docker's output (at the Docker host setting, if any), or null when it fails, is missing or takes longer than 5 s (then killed). */
async function docker(args: string[], host: DockerHost): Promise<string | null> {
  const r = await runCommand('docker', args, { timeoutMs: 5000, env: dockerEnv(host) })
  return r.code === 0 ? r.lines.join('\n').trim() : null
}

/** The bundled stacks of the run's data folder, for docker monitors that name a `stack`. */
type Stacks = Pick<StackLocator, 'project' | 'appService'>

export async function describeTargets(
  config: RunConfig,
  stacks?: Stacks,
  host?: DockerHost,
): Promise<TargetEnvironment[]> {
  const out: TargetEnvironment[] = []
  for (const t of config.targets) out.push(await describeTarget(t, stacks, host))
  return out
}

async function describeTarget(
  t: RunConfig['targets'][number],
  stacks?: Stacks,
  host?: DockerHost,
): Promise<TargetEnvironment> {
  const containers: TargetEnvironment['containers'] = []
  for (const m of monitorsOf(t)) {
    if (m.kind !== 'docker') continue
    // A `stack` is its compose project in this data folder, app service unless another is named.
    const project = m.stack !== undefined ? (stacks?.project(m.stack) ?? m.stack) : m.project
    const service = m.service ?? (m.stack !== undefined ? stacks?.appService(m.stack) : undefined)
    const filter = m.container
      ? [m.container]
      : (
          (await docker(
            [
              'ps',
              '-q',
              '--filter',
              `label=com.docker.compose.project=${project ?? ''}`,
              ...(service ? ['--filter', `label=com.docker.compose.service=${service}`] : []),
            ],
            host,
          )) ?? ''
        )
          .split('\n')
          .filter(Boolean)
    for (const id of filter) {
      const out = await docker(
        [
          'inspect',
          '--format',
          '{{.Name}}\t{{.Config.Image}}@{{.Image}}\t{{.HostConfig.NanoCpus}}\t{{.HostConfig.Memory}}',
          id,
        ],
        host,
      )
      if (!out) continue
      const [name = '', image = '', nano = '0', mem = '0'] = out.split('\t')
      containers.push({
        name: name.replace(/^\//, ''),
        image,
        cpus: Number(nano) > 0 ? Number(nano) / 1e9 : null,
        memoryBytes: Number(mem) > 0 ? Number(mem) : null,
      })
    }
  }
  const out: TargetEnvironment = {
    name: t.name,
    url: redactUrl(t.url),
    monitor: t.monitor ?? null,
    containers,
    stack: t.stack?.name ?? null,
  }
  if (containers.length) {
    out.image = [...new Set(containers.map((c) => c.image))].join(', ')
    out.limits = containers
      .map(
        (c) =>
          `${c.name}: ${c.cpus ?? 'no'} CPU limit, ${c.memoryBytes ? `${Math.round(c.memoryBytes / 1048576)} MiB` : 'no memory limit'}`,
      )
      .join('; ')
  }
  return out
}

/** Host, CPU, versions and the targets, for the run's environment row; `extra` joins the details. */
export async function gatherEnvironment(
  config: RunConfig,
  extra: Record<string, unknown> = {},
  stacks?: Stacks,
  host?: DockerHost,
): Promise<EnvironmentInfo> {
  const cpu = cpus()
  // How busy the machine is as the run starts: kept with the run, said on its page and report.
  const machine = await machineLoad()
  return {
    host: hostname(),
    cpu: cpu[0]?.model ?? 'unknown',
    cores: cpu.length,
    os: `${platform()} ${release()}`,
    node: process.version,
    app: APP_VERSION,
    details: { targets: await describeTargets(config, stacks, host), machine, ...extra },
  }
}
