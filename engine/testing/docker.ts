// For test files that need Docker Compose: why it cannot run here (null when it can), printed as
// the reason of a skip; with CANNONADE_REQUIRE_DOCKER=1 (CI) the tests fail instead of skipping.
import { spawnSync } from 'node:child_process'
import { detectCompose } from '../stacks/compose.ts'

export const dockerRequired = process.env.CANNONADE_REQUIRE_DOCKER === '1'

export function composeUnavailable(): string | null {
  try {
    detectCompose()
    return null
  } catch (err) {
    return (err as Error).message
  }
}

/** Skip (with the reason printed) unless Docker is here or required; `reason` fails beforeAll when required. */
export function dockerGate(what: string): { skip: boolean; reason: string | null } {
  const reason = composeUnavailable()
  if (reason && !dockerRequired) console.warn(`skipping ${what}: ${reason}`)
  return { skip: reason !== null && !dockerRequired, reason }
}

/** Running containers of a compose project (of one service). */
export function runningContainers(project: string, service?: string): string[] {
  const filters = ['--filter', `label=com.docker.compose.project=${project}`]
  if (service) filters.push('--filter', `label=com.docker.compose.service=${service}`)
  const r = spawnSync('docker', ['ps', '-q', ...filters], { encoding: 'utf8', timeout: 20_000 })
  return r.stdout.split('\n').filter(Boolean)
}

/** Volumes of a compose project. */
export function projectVolumes(project: string): string[] {
  const r = spawnSync(
    'docker',
    ['volume', 'ls', '-q', '--filter', `label=com.docker.compose.project=${project}`],
    {
      encoding: 'utf8',
      timeout: 20_000,
    },
  )
  return r.stdout.split('\n').filter(Boolean)
}
