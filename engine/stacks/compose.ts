// Docker Compose, whichever exists: v2 (`docker compose`) or v1 (`docker-compose`). Output is
// streamed line by line, so `stacks up` shows the build as it happens.
import { spawn, spawnSync } from 'node:child_process'
import { ApiError } from '../api/errors.ts'

export type Compose = { cmd: string; args: string[]; version: string }

let cached: Compose | null = null

function tryVersion(cmd: string, args: string[]): string | null {
  const r = spawnSync(cmd, [...args, 'version', '--short'], { encoding: 'utf8', timeout: 15_000 })
  return r.status === 0 ? r.stdout.trim() : null
}

/** The compose command, after checking the Docker engine answers. Errors say what to do. */
export function detectCompose(opts: { fresh?: boolean } = {}): Compose {
  if (cached && !opts.fresh) return cached
  const docker = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], {
    encoding: 'utf8',
    timeout: 20_000,
  })
  if (docker.error) {
    throw new ApiError(
      'unavailable',
      'Docker is not installed (no `docker` command). Install Docker, or run the stack without it: `cannonade stacks up NAME --native`.',
    )
  }
  if (docker.status !== 0) {
    const why = (docker.stderr || docker.stdout).trim().split('\n')[0] ?? ''
    throw new ApiError(
      'unavailable',
      `Docker is not running (docker info: ${why}). Start the Docker engine, or use --native.`,
    )
  }
  const v2 = tryVersion('docker', ['compose'])
  if (v2) return (cached = { cmd: 'docker', args: ['compose'], version: v2 })
  const v1 = tryVersion('docker-compose', [])
  if (v1) return (cached = { cmd: 'docker-compose', args: [], version: v1 })
  throw new ApiError(
    'unavailable',
    'Docker Compose is not installed (neither `docker compose` nor `docker-compose`). Install one, or use --native.',
  )
}

export interface RunResult {
  code: number
  lines: string[]
}

/** Run a command, passing each output line to `onLine`; keeps the last 200 lines for errors. */
export function run(
  cmd: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; onLine?: (l: string) => void; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const lines: string[] = []
    let partial = ''
    const feed = (chunk: Buffer) => {
      const text = partial + chunk.toString('utf8')
      const parts = text.split(/\r?\n|\r/)
      partial = parts.pop() ?? ''
      for (const line of parts) {
        if (!line.trim()) continue
        lines.push(line)
        if (lines.length > 200) lines.shift()
        opts.onLine?.(line)
      }
    }
    child.stdout.on('data', feed)
    child.stderr.on('data', feed)
    const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGTERM'), opts.timeoutMs) : null
    child.on('error', (err) => {
      if (timer) clearTimeout(timer)
      resolve({ code: 127, lines: [...lines, err.message] })
    })
    child.on('close', (code) => {
      if (timer) clearTimeout(timer)
      if (partial.trim()) lines.push(partial)
      resolve({ code: code ?? 1, lines })
    })
  })
}
