// Stand-ins for "a Docker engine somewhere else", to check that the Docker host setting reaches
// every Docker call: an Engine API on a unix socket that knows no container (what dockerode
// talks to), and a `docker` command to put first on PATH that writes down the DOCKER_HOST and the
// arguments it was called with (what the stacks and a run's environment call).
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface FakeDockerEngine {
  /** unix:///…/docker.sock: the Docker host setting that points here. */
  host: string
  /** Every request path it received ("/_ping", "/containers/x/json"). */
  paths: string[]
  close(): Promise<void>
}

/** An Engine API that answers pings and knows no container (404 "No such container"). */
export async function startFakeDockerEngine(): Promise<FakeDockerEngine> {
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-docker-'))
  const socket = join(dir, 'docker.sock')
  const paths: string[] = []
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').replace(/^\/v[\d.]+/, '').split('?')[0] ?? ''
    paths.push(path)
    if (path === '/_ping') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK')
      return
    }
    const name = /^\/containers\/([^/]+)/.exec(path)?.[1] ?? ''
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ message: `No such container: ${decodeURIComponent(name)}` }))
  })
  await new Promise<void>((resolve) => server.listen(socket, resolve))
  return {
    host: `unix://${socket}`,
    paths,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export interface FakeDockerCli {
  /** The folder to put first on PATH. */
  dir: string
  /** Each call so far: the DOCKER_HOST it saw ('' when unset) and its arguments. */
  calls(): { host: string; args: string }[]
  close(): void
}

/**
 * A `docker` command that logs each call and answers what stacks ask first: `docker info` (a
 * server version) and `docker compose version` (a compose version). `answers` scripts more: the
 * lines to print for a call whose arguments start with a key (`ps -a`, `port`), first key first;
 * anything else prints nothing.
 */
export function fakeDockerCli(answers: Readonly<Record<string, string[]>> = {}): FakeDockerCli {
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-docker-cli-'))
  const log = join(dir, 'calls.log')
  const script = join(dir, 'docker')
  const quote = (text: string) => {
    if (text.includes("'")) throw new Error(`fakeDockerCli: no single quotes in answers (${text})`)
    return `'${text}'`
  }
  const scripted = Object.entries(answers)
    .map(([args, lines]) => `  ${quote(args)}*) printf '%s\\n' ${lines.map(quote).join(' ')}; exit 0 ;;`)
    .join('\n')
  writeFileSync(
    script,
    `#!/bin/sh
printf '%s\\t%s\\n' "\${DOCKER_HOST-}" "$*" >> '${log}'
case "$*" in
${scripted}
esac
case "$1" in
  info) echo 27.0.0 ;;
  compose) echo 2.29.0 ;;
esac
exit 0
`,
  )
  chmodSync(script, 0o755)
  return {
    dir,
    calls: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => {
              const [host = '', args = ''] = l.split('\t')
              return { host, args }
            })
        : [],
    close: () => rmSync(dir, { recursive: true, force: true }),
  }
}
