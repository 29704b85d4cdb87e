// What the report's environment section shows about each target: the container image and the
// CPU and memory limits it ran with (docker-monitored targets), or the bundled stack's limits.
import { spawnSync } from 'node:child_process'
import type { RunConfig } from '../config/schema.ts'

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

function docker(args: string[]): string | null {
  const r = spawnSync('docker', args, { encoding: 'utf8', timeout: 5000 })
  return r.status === 0 ? r.stdout.trim() : null
}

export function describeTargets(config: RunConfig): TargetEnvironment[] {
  return config.targets.map((t) => {
    const containers: TargetEnvironment['containers'] = []
    const m = t.monitor
    if (m?.kind === 'docker') {
      const filter = m.container
        ? [m.container]
        : (
            docker([
              'ps',
              '-q',
              '--filter',
              `label=com.docker.compose.project=${m.project ?? ''}`,
              ...(m.service ? ['--filter', `label=com.docker.compose.service=${m.service}`] : []),
            ]) ?? ''
          )
            .split('\n')
            .filter(Boolean)
      for (const id of filter) {
        const out = docker([
          'inspect',
          '--format',
          '{{.Name}}\t{{.Config.Image}}@{{.Image}}\t{{.HostConfig.NanoCpus}}\t{{.HostConfig.Memory}}',
          id,
        ])
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
      url: t.url,
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
  })
}
