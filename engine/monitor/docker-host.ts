// Where the Docker engine is: the Docker host setting (Settings → Docker), written as DOCKER_HOST
// is (unix:///var/run/docker.sock, tcp://127.0.0.1:2375, npipe:////./pipe/docker_engine,
// ssh://user@host). Every Docker call of the engine goes there: dockerode (monitors) through
// `dockerOptions`, the docker and compose commands (stacks, the run's environment) through
// `dockerEnv`. Without a setting both use DOCKER_HOST or Docker's own default, as before.
import type { DockerOptions } from 'dockerode'

/** The setting, or undefined to use DOCKER_HOST / Docker's default. */
export type DockerHost = string | undefined

/** dockerode's connection options for a DOCKER_HOST-style address (as docker-modem reads DOCKER_HOST). */
export function dockerOptions(host: DockerHost): DockerOptions | undefined {
  if (!host) return undefined
  if (host.startsWith('unix://'))
    return { socketPath: host.slice('unix://'.length) || '/var/run/docker.sock' }
  if (host.startsWith('npipe://'))
    return { socketPath: host.slice('npipe://'.length) || '//./pipe/docker_engine' }
  const url = new URL(host.includes('//') ? host : `tcp://${host}`)
  if (url.protocol === 'ssh:')
    return { protocol: 'ssh', host: url.hostname, port: url.port || 22, username: url.username }
  // As the docker CLI: 2376 is the TLS port; https:// says so too.
  const tls = url.port === '2376' || url.protocol === 'https:'
  return { protocol: tls ? 'https' : 'http', host: url.hostname, port: url.port || (tls ? 2376 : 2375) }
}

/** The environment of a docker / docker compose command: DOCKER_HOST set when the setting is. */
export function dockerEnv(host: DockerHost): NodeJS.ProcessEnv {
  return host ? { ...process.env, DOCKER_HOST: host } : process.env
}

/** What a message names as the engine's address. */
export function dockerWhere(host: DockerHost, socketPath?: string): string {
  return socketPath ?? host ?? process.env.DOCKER_HOST ?? '/var/run/docker.sock'
}
