// Docker Compose, whichever exists: v2 (`docker compose`) or v1 (`docker-compose`). Output is
// streamed line by line, so `stacks up` shows the build as it happens. Every call has a deadline
// (../command.ts): a Docker engine that does not answer is an error naming the command, never a
// hang, and no call waits synchronously: the engine host serves the UI meanwhile.
import { ApiError } from '../api/errors.ts'
import { captureCommand, runCommand, timeoutMessage, type CommandResult } from '../command.ts'
import { dockerEnv, type DockerHost } from '../monitor/docker-host.ts'

export type Compose = { cmd: string; args: string[]; version: string }

/** Deadlines of the calls this module makes; `up --build` may build images (minutes). */
export const DOCKER_TIMEOUTS = {
  info: 20_000,
  version: 15_000,
  up: 20 * 60_000,
  down: 3 * 60_000,
  query: 30_000,
}

// Per Docker host (the setting can change while the engine runs).
const cached = new Map<string, Compose>()

/**
 * A quick question to docker, killed (its process group) at `timeoutMs`: its output, or why there
 * is none. A child process the event loop does not wait on (it once ran synchronously, holding
 * `serve` for up to 20 s when the engine did not answer).
 */
async function ask(
  cmd: string,
  args: string[],
  timeoutMs: number,
  host: DockerHost,
): Promise<{ out: string } | { error: string }> {
  const r = await captureCommand(cmd, args, { env: dockerEnv(host), timeoutMs, maxBytes: 1024 * 1024 })
  if (r.timedOut) return { error: 'timeout' }
  if (r.code === 127 && /ENOENT/.test(r.stderr)) return { error: 'missing' }
  if (r.code !== 0) return { error: (r.stderr || r.stdout).trim().split('\n')[0] ?? '' }
  return { out: r.stdout.trim() }
}

async function tryVersion(cmd: string, args: string[], host: DockerHost): Promise<string | null> {
  const r = await ask(cmd, [...args, 'version', '--short'], DOCKER_TIMEOUTS.version, host)
  return 'out' in r ? r.out : null
}

/**
 * The compose command, after checking the Docker engine answers (at `host`: the Docker host
 * setting, see engine/monitor/docker-host.ts). Errors say what to do.
 */
export async function detectCompose(opts: { fresh?: boolean; host?: DockerHost } = {}): Promise<Compose> {
  const known = cached.get(opts.host ?? '')
  if (known && !opts.fresh) return known
  const docker = await ask(
    'docker',
    ['info', '--format', '{{.ServerVersion}}'],
    DOCKER_TIMEOUTS.info,
    opts.host,
  )
  const at = opts.host ? ` at ${opts.host} (the Docker host setting)` : ''
  if ('error' in docker) {
    if (docker.error === 'timeout')
      throw new ApiError(
        'unavailable',
        `\`docker info\` (the Docker engine${at}) did not answer within ${Math.round(DOCKER_TIMEOUTS.info / 1000)} s and was stopped. Check that Docker is running, or use --native.`,
      )
    if (docker.error === 'missing')
      throw new ApiError(
        'unavailable',
        'Docker is not installed (no `docker` command). Install Docker, or run the stack without it: `cannonade stacks up NAME --native`.',
      )
    throw new ApiError(
      'unavailable',
      `Docker is not running${at} (docker info: ${docker.error}). Start the Docker engine, or use --native.`,
    )
  }
  const found = (compose: Compose) => (cached.set(opts.host ?? '', compose), compose)
  const v2 = await tryVersion('docker', ['compose'], opts.host)
  if (v2) return found({ cmd: 'docker', args: ['compose'], version: v2 })
  const v1 = await tryVersion('docker-compose', [], opts.host)
  if (v1) return found({ cmd: 'docker-compose', args: [], version: v1 })
  throw new ApiError(
    'unavailable',
    'Docker Compose is not installed (neither `docker compose` nor `docker-compose`). Install one, or use --native.',
  )
}

export type RunResult = CommandResult

/** Run a command, passing each output line to `onLine`; killed after `timeoutMs` (default 30 s). */
export function run(
  cmd: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; onLine?: (l: string) => void; timeoutMs?: number } = {},
): Promise<RunResult> {
  return runCommand(cmd, args, { ...opts, timeoutMs: opts.timeoutMs ?? DOCKER_TIMEOUTS.query })
}

/** The lines to show for a failed call: what timed out, or its last output. */
export function failureText(r: RunResult, what: string, timeoutMs: number, last = 15): string {
  return timeoutMessage(r, what, timeoutMs) ?? r.lines.slice(-last).join('\n')
}
