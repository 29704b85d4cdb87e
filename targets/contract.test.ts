// The API contract every target stack must meet, checked against every stack started natively
// (throwaway local PostgreSQL + the server as a local process) and, when Docker is available,
// against compose stacks too. CANNONADE_REQUIRE_DOCKER=1 turns "no Docker" from a skip into a
// failure; CANNONADE_DOCKER_STACKS picks the compose stacks (comma list or "all"; default
// node-http,java-jetty; "none" for none); CANNONADE_NATIVE_STACKS picks the native ones (default all).
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contract } from './contract/checks.ts'
import {
  buildNative,
  loadManifest,
  repoRoot,
  startNativeServer,
  waitForHealth,
} from '../engine/stacks/native.ts'
import type { ServerProcess, StackSpec } from '../engine/stacks/native.ts'
import { freePort, seedDatabase, startPostgres } from '../engine/stacks/postgres.ts'
import type { LocalPostgres } from '../engine/stacks/postgres.ts'

const manifest = loadManifest()

/**
 * Each stack runs the contract as it starts by default, and chained through itself twice
 * without a pool (every request then opens its own database connection at the last hop).
 */
const VARIANTS: { label: string; env: Record<string, string>; hops: number; pooled: boolean }[] = [
  { label: '', env: {}, hops: 0, pooled: true },
  {
    label: ' (CHAIN_DEPTH=2, POOL_SIZE=0)',
    env: { CHAIN_DEPTH: '2', POOL_SIZE: '0' },
    hops: 2,
    pooled: false,
  },
]

/** Workers or threads that share /compute?split=K: WORKERS (node-cluster), SPLIT_THREADS (Java), else one. */
function lanesOf(stack: StackSpec): number {
  return Number(stack.native.env['WORKERS'] ?? stack.native.env['SPLIT_THREADS'] ?? 1)
}

function pick(envName: string, fallback: string[]): StackSpec[] {
  const raw = process.env[envName]
  if (raw === 'none') return []
  const names = !raw ? fallback : raw === 'all' ? manifest.stacks.map((s) => s.name) : raw.split(',')
  return names.map((n) => {
    const stack = manifest.stacks.find((s) => s.name === n.trim())
    if (!stack) throw new Error(`${envName}: unknown stack ${n}`)
    return stack
  })
}

// --- native stacks --------------------------------------------------------------------------------

describe('native stacks', () => {
  let pg: LocalPostgres | undefined
  beforeAll(async () => {
    pg = await startPostgres({
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
    })
  }, 120_000)
  afterAll(async () => {
    await pg?.stop()
  })

  for (const stack of pick(
    'CANNONADE_NATIVE_STACKS',
    manifest.stacks.map((s) => s.name),
  )) {
    for (const variant of VARIANTS) {
      describe(`${stack.name}${variant.label}`, () => {
        let server: ServerProcess | undefined
        let databaseUrl = ''
        beforeAll(async () => {
          if (!pg) throw new Error('PostgreSQL did not start')
          const db = `${stack.name.replace(/-/g, '_')}${variant.hops > 0 ? '_chained' : ''}`
          await pg.createDatabase(db)
          databaseUrl = pg.url(db)
          await seedDatabase(databaseUrl, path.join(repoRoot, manifest.seed), pg.pgBin)
          const built = await buildNative(stack)
          const began = Date.now()
          server = await startNativeServer(stack, { databaseUrl, env: variant.env, timeoutMs: 60_000 })
          console.log(
            `[native] ${stack.name}${variant.label}${built ? ' (built)' : ''} healthy in ${Date.now() - began} ms at ${server.url}`,
          )
        }, 600_000)
        afterAll(async () => {
          await server?.stop()
        })
        contract(() => ({
          base: server?.url ?? 'http://server-not-started',
          hops: variant.hops,
          pooled: variant.pooled,
          lanes: lanesOf(stack),
          databaseUrl,
        }))
      })
    }
  }
})

// --- compose stacks -------------------------------------------------------------------------------

function compose(): { argv: string[]; reason: string | null } {
  const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], {
    encoding: 'utf8',
    timeout: 20_000,
  })
  if (info.error) return { argv: [], reason: `docker CLI not usable: ${info.error.message}` }
  if (info.status !== 0)
    return { argv: [], reason: `Docker engine not reachable: ${(info.stderr || info.stdout).trim()}` }
  if (spawnSync('docker', ['compose', 'version'], { timeout: 20_000 }).status === 0) {
    return { argv: ['docker', 'compose'], reason: null }
  }
  if (spawnSync('docker-compose', ['version'], { timeout: 20_000 }).status === 0) {
    return { argv: ['docker-compose'], reason: null }
  }
  return { argv: [], reason: 'neither `docker compose` nor `docker-compose` is installed' }
}

const docker = compose()
const requireDocker = process.env['CANNONADE_REQUIRE_DOCKER'] === '1'

if (docker.reason) {
  if (requireDocker) {
    describe('compose stacks', () => {
      it('needs Docker (CANNONADE_REQUIRE_DOCKER=1)', () => {
        throw new Error(`Docker required but unavailable: ${docker.reason}`)
      })
    })
  } else {
    console.warn(
      `[compose] skipping the compose stacks: ${docker.reason} (set CANNONADE_REQUIRE_DOCKER=1 to fail instead)`,
    )
  }
}

const composeStacks = pick('CANNONADE_DOCKER_STACKS', ['node-http', 'java-jetty'])

describe.skipIf(docker.reason !== null || composeStacks.length === 0)('compose stacks', () => {
  for (const stack of composeStacks) {
    describe(stack.name, () => {
      // A project and port of its own, so a stack the user has up is left alone.
      const project = `cannonade-test-${stack.name}`
      let url = ''
      let env: NodeJS.ProcessEnv = process.env
      const run = (...args: string[]) => {
        const [cmd, ...pre] = docker.argv
        const r = spawnSync(
          cmd ?? 'docker',
          [...pre, '-p', project, '-f', path.join(repoRoot, stack.composeFile), ...args],
          {
            encoding: 'utf8',
            env,
            maxBuffer: 64 << 20,
          },
        )
        if (r.status !== 0) throw new Error(`compose ${args.join(' ')} failed: ${r.stderr || r.stdout}`)
        return r.stdout
      }

      beforeAll(async () => {
        const port = await freePort()
        env = { ...process.env, [stack.portEnv]: String(port) }
        url = `http://127.0.0.1:${port}`
        run('down', '-v', '--remove-orphans')
        const began = Date.now()
        run('up', '-d', '--build')
        const waited = await waitForHealth(url + stack.healthPath, { timeoutMs: 180_000, intervalMs: 250 })
        console.log(
          `[compose] ${stack.name} up + healthy in ${Date.now() - began} ms (health wait ${waited} ms)`,
        )
      }, 900_000)
      afterAll(() => {
        try {
          run('down', '-v', '--remove-orphans')
        } catch (err) {
          console.warn(String(err))
        }
      }, 120_000)

      it('runs with the CPU and memory limits of stacks.json', () => {
        for (const [service, limit] of Object.entries(stack.limits)) {
          const id = run('ps', '-q', service).trim()
          expect(id, `container of ${service}`).not.toBe('')
          const inspect = spawnSync(
            'docker',
            ['inspect', '--format', '{{.HostConfig.NanoCpus}} {{.HostConfig.Memory}}', id],
            {
              encoding: 'utf8',
            },
          )
          const [nanoCpus, memory] = inspect.stdout.trim().split(' ').map(Number)
          expect(nanoCpus, `${service} NanoCpus`).toBe(Math.round(limit.cpus * 1e9))
          const m = /^(\d+)([kmg])$/.exec(limit.memory)
          const unit = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(m?.[2] ?? 'm') as 'k' | 'm' | 'g']
          expect(memory, `${service} Memory`).toBe(Number(m?.[1]) * unit)
        }
      })

      contract(() => ({ base: url, hops: 0, pooled: true, lanes: lanesOf(stack), databaseUrl: '' }))
    })
  }
})
