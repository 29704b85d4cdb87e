// A stack as a Docker Compose project, the side of `Stacks` (stacks.ts) that needs Docker: its
// project name, the files and variables its compose files read, `up` (variables and port checked,
// compose up, /health awaited) and `down`, and where its database container answers. The compose
// command itself (which one, with deadlines) is compose.ts; what Docker says about the project's
// containers is containers.ts; how the project runs now is status.ts.
//
// Projects carry a hash of the data folder in their name: two data folders, or two people on one
// Docker daemon, never share one.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { ApiError } from '../api/errors.ts'
import type { CommandResult } from '../command.ts'
import { detectCompose, DOCKER_TIMEOUTS, failureText, run, type Compose } from './compose.ts'
import { portHolders, projectContainers, publishedAddress } from './containers.ts'
import { loadManifest, repoRoot, type StackSpec } from './manifest.ts'
import { portFree } from './postgres.ts'
import { stackEnvIssues } from '../config/stack-env.ts'

/** One stack's compose project, as the engine of one data folder runs it. */
export interface ComposeProject {
  /** The manifest's entry, on the port this engine runs it on. */
  spec: StackSpec
  /** `cannonade-node-http-1a2b3c` (projectFor). */
  project: string
  /** The Docker host setting (engine/monitor/docker-host.ts); unset: DOCKER_HOST or the default. */
  dockerHost: string | undefined
  log: (line: string) => void
}

/** What `up` starts the project with. */
export interface ComposeUp {
  port: number
  /** Where the app's HTTPS is published (its env has TLS=on), else null. */
  tlsPort: number | null
  /** The app's settings and limits, checked against composeVariables. */
  env: Record<string, string>
  replicas: number
  /** Rebuild the images first. */
  build: boolean
  healthTimeoutMs: number
}

/** `cannonade-node-http-1a2b3c`: the manifest's project plus a short hash of the data folder. */
export function projectFor(base: string, stateDir: string): string {
  let dir = resolve(stateDir)
  try {
    dir = join(realpathSync(dirname(dir)), basename(dir))
  } catch {
    /* the data folder does not exist yet: its resolved path is as unique */
  }
  return `${base}-${createHash('sha256').update(dir).digest('hex').slice(0, 6)}`
}

/**
 * The variables a stack's compose files read (`${NAME…}`): the app's settings and the limits
 * (CANNONADE_APP_CPUS…), but not the ports and replica count, which up() sets itself.
 */
export function composeVariables(s: StackSpec): string[] {
  const { balancer: lb, tls } = loadManifest()
  const managed = new Set([s.portEnv, lb.portEnv, lb.replicasEnv, tls.portEnv])
  const names = new Set<string>()
  for (const file of [s.composeFile, lb.composeFile, tls.composeFile]) {
    const text = readFileSync(join(repoRoot, file), 'utf8')
    for (const m of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)) if (!managed.has(m[1]!)) names.add(m[1]!)
  }
  return [...names].sort()
}

/** DOCKER_HOST for the docker and compose commands, when the Docker host setting is set. */
function dockerEnv(p: ComposeProject): Record<string, string> {
  return p.dockerHost ? { DOCKER_HOST: p.dockerHost } : {}
}

/** compose's `-p` and `-f` arguments: the stack's file, the balancer's with replicas, the TLS port's with TLS. */
function composeArgs(p: ComposeProject, replicas: number, tls = false): string[] {
  const m = loadManifest()
  const files = [
    p.spec.composeFile,
    ...(replicas > 1 ? [m.balancer.composeFile] : []),
    ...(tls ? [m.tls.composeFile] : []),
  ]
  return ['-p', p.project, ...files.flatMap((f) => ['-f', join(repoRoot, f)])]
}

/** Refuses settings the stack's compose files do not read (they would be silently ignored). */
function checkVariables(s: StackSpec, env: Record<string, string>): void {
  const known = composeVariables(s)
  const unknown = Object.keys(env).filter((k) => !known.includes(k))
  if (unknown.length > 0) {
    throw new ApiError(
      'bad-input',
      `stack ${s.name} does not read ${unknown.join(', ')}; it reads ${known.join(', ')}`,
      'env',
    )
  }
  const issues = stackEnvIssues(s.name, env)
  if (issues.length > 0) throw new ApiError('bad-input', issues.map((i) => i.message).join('; '), 'env')
}

/** Refuses a port held by anything but this project itself (which `up` then restarts). */
async function checkPort(p: ComposeProject, port: number): Promise<void> {
  if (await portFree(port)) return
  const holders = await portHolders(port, p.dockerHost)
  if (holders.some((h) => h.project === p.project)) return
  const who = holders[0]
    ? ` by container ${holders[0].name}${holders[0].project ? ` of compose project ${holders[0].project}` : ''}`
    : ' by another program'
  throw new ApiError(
    'conflict',
    `port ${port} is already in use${who}; stop it, or give another port (--port / ${p.spec.portEnv})`,
  )
}

/**
 * Docker frees a published port a moment after the container holding it is removed: recreating a
 * project's container with the same port (new settings, TLS on) can find it "already allocated"
 * by the container it replaces (checkPort let it through: its holder is this project). Such an
 * `up` is tried once more after a pause; any other failure is final.
 */
const PORT_RACE = /port is already allocated/
export const PORT_RACE_PAUSE_MS = 2000

export async function retryPortRace(
  up: () => Promise<CommandResult>,
  onRetry: () => void,
  pauseMs = PORT_RACE_PAUSE_MS,
): Promise<CommandResult> {
  const first = await up()
  if (first.code === 0 || first.timedOut || !first.lines.some((l) => PORT_RACE.test(l))) return first
  onRetry()
  await new Promise((r) => setTimeout(r, pauseMs))
  return up()
}

/** `compose up -d`; a failure takes the project `down` again and says why. */
async function startProject(
  p: ComposeProject,
  compose: Compose,
  args: string[],
  o: ComposeUp,
  down: () => Promise<void>,
): Promise<void> {
  const s = p.spec
  const { balancer: lb, tls } = loadManifest()
  const composeEnv = {
    ...o.env,
    // Behind the balancer each replica publishes an ephemeral port, the balancer the stack's.
    [s.portEnv]: o.replicas > 1 ? '' : String(o.port),
    [lb.portEnv]: String(o.port),
    [lb.replicasEnv]: String(o.replicas),
    ...(o.tlsPort !== null ? { [tls.portEnv]: String(o.tlsPort) } : {}),
  }
  const build = o.build ? ['--build'] : []
  const scale = `${s.appService}=${o.replicas}`
  p.log(`${compose.cmd} ${args.join(' ')} up -d ${build.join(' ')} --scale ${scale}`)
  const up = await retryPortRace(
    () =>
      run(compose.cmd, [...args, 'up', '-d', ...build, '--remove-orphans', '--scale', scale], {
        env: { ...composeEnv, ...dockerEnv(p) },
        onLine: p.log,
        timeoutMs: DOCKER_TIMEOUTS.up,
      }),
    () =>
      p.log(`a port was still held by the container being replaced; ${PORT_RACE_PAUSE_MS} ms, then up again`),
  )
  if (up.code === 0) return
  await down().catch(() => undefined)
  throw new ApiError(
    up.timedOut ? 'unavailable' : 'internal',
    `stack ${s.name} did not start (${up.timedOut ? 'timed out' : `exit ${up.code}`}):\n${failureText(up, `${compose.cmd} ${compose.args.join(' ')} up`, DOCKER_TIMEOUTS.up)}`,
  )
}

async function healthy(url: string): Promise<boolean> {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(2000) })
    return r.ok
  } catch {
    return false
  }
}

/**
 * Polls the stack's /health until it answers; past the deadline the project is taken `down` (its
 * database kept) and the error carries the app's last log lines. Resolves to the deadline.
 */
async function awaitHealth(
  p: ComposeProject,
  compose: Compose,
  args: string[],
  o: ComposeUp,
  down: () => Promise<void>,
): Promise<number> {
  const s = p.spec
  const url = `http://127.0.0.1:${o.port}`
  const deadline = Date.now() + o.healthTimeoutMs
  while (!(await healthy(url + s.healthPath))) {
    if (Date.now() > deadline) {
      const service = o.replicas > 1 ? [s.appService, loadManifest().balancer.service] : [s.appService]
      const logs = await run(compose.cmd, [...args, 'logs', '--no-color', '--tail', '20', ...service], {
        timeoutMs: 20_000,
        env: dockerEnv(p),
      })
      await down()
      throw new ApiError(
        'unavailable',
        `stack ${s.name} never answered ${url}${s.healthPath} within ${Math.round(o.healthTimeoutMs / 1000)} s; it was stopped (its database kept). Last log lines:\n${logs.lines.slice(-20).join('\n')}`,
      )
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  const https = o.tlsPort !== null ? `, HTTPS at https://127.0.0.1:${o.tlsPort}` : ''
  p.log(
    `${s.name} is healthy at ${url}${https}${o.replicas > 1 ? ` (${o.replicas} replicas behind the balancer)` : ''}`,
  )
  return deadline
}

/**
 * Starts the project and waits until its /health answers. `down` takes the stack down after a
 * failure. Resolves to the health deadline, which the wait for Docker's own healthcheck shares.
 */
export async function composeUp(p: ComposeProject, o: ComposeUp, down: () => Promise<void>): Promise<number> {
  const compose = await detectCompose({ host: p.dockerHost })
  checkVariables(p.spec, o.env)
  await checkPort(p, o.port)
  if (o.tlsPort !== null) await checkPort(p, o.tlsPort)
  const args = [...compose.args, ...composeArgs(p, o.replicas, o.tlsPort !== null)]
  await startProject(p, compose, args, o, down)
  return awaitHealth(p, compose, args, o, down)
}

/** Removes the project's containers and networks (its database volume only with `volumes`). */
export async function composeDown(p: ComposeProject, volumes: boolean): Promise<void> {
  if (!existsSync(join(repoRoot, p.spec.composeFile))) return
  let compose
  try {
    compose = await detectCompose({ host: p.dockerHost })
  } catch {
    return // no Docker: nothing of this stack can be running in it
  }
  const r = await run(
    compose.cmd,
    [...compose.args, ...composeArgs(p, 1), 'down', '--remove-orphans', ...(volumes ? ['-v'] : [])],
    { onLine: p.log, timeoutMs: DOCKER_TIMEOUTS.down, env: dockerEnv(p) },
  )
  if (r.code !== 0)
    throw new ApiError(
      r.timedOut ? 'unavailable' : 'internal',
      `stack ${p.spec.name} could not be removed:\n${failureText(r, `${compose.cmd} ${compose.args.join(' ')} down`, DOCKER_TIMEOUTS.down, 10)}`,
    )
}

/** A URL to the project's PostgreSQL container, at its published port. */
export async function composeDatabaseUrl(p: ComposeProject): Promise<string> {
  await detectCompose({ host: p.dockerHost })
  const db = (await projectContainers(p.project, p.dockerHost)).find(
    (c) => c.service === p.spec.dbService && c.state === 'running',
  )
  const address = db ? await publishedAddress(db.id, loadManifest().database.port, p.dockerHost) : null
  if (!address) {
    throw new ApiError(
      'unavailable',
      `stack ${p.spec.name} is not running (no database container): start it first`,
    )
  }
  const { user, password, name: database } = loadManifest().database
  return `postgres://${user}:${password}@${address}/${database}`
}
