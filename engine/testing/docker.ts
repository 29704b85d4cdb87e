// For test files that need Docker Compose: why it cannot run here (null when it can), printed as
// the reason of a skip; with CANNONADE_REQUIRE_DOCKER=1 (CI) the tests fail instead of skipping.
import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll } from 'vitest'
import { freePort } from '../stacks/postgres.ts'
import { Stacks, stackStateDir } from '../stacks/stacks.ts'
import { tempDbPath } from './run-config.ts'

export const dockerRequired = process.env.CANNONADE_REQUIRE_DOCKER === '1'

/**
 * Asked at a test file's load, synchronously (a describe block's skip is decided then): the same
 * questions the product asks without blocking (engine/stacks/compose.ts), with their deadlines.
 */
export function composeUnavailable(): string | null {
  const ask = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8', timeout: 20_000 })
  const info = ask('docker', ['info', '--format', '{{.ServerVersion}}'])
  const code: unknown = info.error && 'code' in info.error ? info.error.code : undefined
  if (code === 'ENOENT') return 'Docker is not installed (no `docker` command)'
  if (info.status !== 0)
    return `Docker is not running (docker info: ${(info.stderr || String(info.error)).trim().split('\n')[0]})`
  if (ask('docker', ['compose', 'version', '--short']).status === 0) return null
  if (ask('docker-compose', ['version', '--short']).status === 0) return null
  return 'Docker Compose is not installed (neither `docker compose` nor `docker-compose`)'
}

/** Skip (with the reason printed) unless Docker is here or required; `reason` fails beforeAll when required. */
export function dockerGate(what: string): { skip: boolean; reason: string | null } {
  const reason = composeUnavailable()
  if (reason && !dockerRequired) console.warn(`skipping ${what}: ${reason}`)
  return { skip: reason !== null && !dockerRequired, reason }
}

/**
 * The node-http stack of a fresh data folder on a free loopback port, for a describe block: the port
 * is chosen before the suite (failing it when Docker is required and missing) and the stack is taken
 * down with its volumes after it. `port` and `url` are read inside tests, once beforeAll has run.
 */
export function nodeHttpStackSuite(
  gate: { reason: string | null },
  onLog?: (stack: string, line: string) => void,
): { dbPath: string; stacks: Stacks; port: number; url: string } {
  const dbPath = tempDbPath()
  const suite = { dbPath, stacks: new Stacks({ stateDir: stackStateDir(dbPath), onLog }), port: 0, url: '' }
  beforeAll(async () => {
    if (gate.reason) throw new Error(`CANNONADE_REQUIRE_DOCKER=1 but Docker is unavailable: ${gate.reason}`)
    suite.port = await freePort()
    suite.url = `http://127.0.0.1:${suite.port}`
  })
  afterAll(async () => {
    await suite.stacks.down('node-http', { volumes: true })
  }, 120_000)
  return suite
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
