// The API contract every target stack must meet (targets/contract/checks.ts), checked against
// every stack started natively (throwaway local PostgreSQL + the server as a local process) and,
// when Docker is available, against compose stacks started by the product's Stacks, each as it
// starts by default and chained twice through itself without a pool. CANNONADE_REQUIRE_DOCKER=1
// turns "no Docker" from a skip into a failure; CANNONADE_DOCKER_STACKS and CANNONADE_NATIVE_STACKS
// pick stacks (comma list; default all; "none" for none).
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contract } from './contract/checks.ts'
import { buildNative, loadManifest, repoRoot, startNativeServer } from '../engine/stacks/native.ts'
import type { ServerProcess, StackSpec } from '../engine/stacks/native.ts'
import { freePort, seedDatabase, startPostgres } from '../engine/stacks/postgres.ts'
import type { LocalPostgres } from '../engine/stacks/postgres.ts'
import { Stacks, stackStateDir } from '../engine/stacks/stacks.ts'
import { dockerGate } from '../engine/testing/docker.ts'
import { tempDbPath } from '../engine/testing/run.ts'

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

const nativeStacks = pick(
  'CANNONADE_NATIVE_STACKS',
  manifest.stacks.map((s) => s.name),
)

describe.skipIf(nativeStacks.length === 0)('native stacks', () => {
  let pg: LocalPostgres | undefined
  beforeAll(async () => {
    pg = await startPostgres({
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
    })
  }, 120_000)
  afterAll(async () => {
    await pg?.stop()
  })

  for (const stack of nativeStacks) {
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

const gate = dockerGate('the compose stacks')
const composeStacks = pick(
  'CANNONADE_DOCKER_STACKS',
  manifest.stacks.map((s) => s.name),
)

describe.skipIf(gate.skip || composeStacks.length === 0)('compose stacks', () => {
  // A data folder of its own: its projects and a free port leave any stack the user has up alone.
  const stacks = new Stacks({ stateDir: stackStateDir(tempDbPath()) })
  beforeAll(() => {
    if (gate.reason)
      throw new Error(`Docker required (CANNONADE_REQUIRE_DOCKER=1) but unavailable: ${gate.reason}`)
  })

  for (const stack of composeStacks) {
    describe(stack.name, () => {
      let url = ''
      let port = 0
      let databaseUrl = ''
      afterAll(async () => {
        await stacks.down(stack.name, { volumes: true })
      }, 120_000)

      for (const [i, variant] of VARIANTS.entries()) {
        describe(`${stack.name}${variant.label}`, () => {
          beforeAll(async () => {
            port ||= await freePort()
            url = `http://127.0.0.1:${port}`
            const began = Date.now()
            // The second variant restarts the same project with other settings: only the app is recreated.
            const st = await stacks.up(stack.name, { port, env: variant.env })
            databaseUrl = await stacks.databaseUrl(stack.name)
            console.log(
              `[compose] ${stack.name}${variant.label} up + healthy in ${Date.now() - began} ms (${st.project})`,
            )
          }, 900_000)

          if (i === 0) {
            it('runs with the CPU and memory limits of stacks.json', async () => {
              const st = (await stacks.status()).find((s) => s.name === stack.name)
              for (const [service, limit] of Object.entries(stack.limits)) {
                const c = st?.containers.find((x) => x.service === service)
                expect(c, `container of ${service}`).toBeDefined()
                expect(c?.cpus, `${service} cpus`).toBe(limit.cpus)
                expect(c?.memory, `${service} memory`).toBe(limit.memory)
              }
            })
          }

          contract(() => ({
            base: url,
            hops: variant.hops,
            pooled: variant.pooled,
            lanes: lanesOf(stack),
            databaseUrl,
          }))
        })
      }
    })
  }
})
