// The API contract every target stack must meet (targets/contract/checks.ts), checked against every
// stack started natively: a throwaway local PostgreSQL and the server as a local process (the Java
// stacks built with Maven first), each as it starts by default and chained twice through itself
// without a pool; the stacks that serve HTTP/2 and TLS once more with both on (contract/protocols.ts).
// CANNONADE_NATIVE_STACKS picks stacks (comma list; default all; "none" for none).
// targets/contract.docker.test.ts checks the same contract against the compose stacks.
import path from 'node:path'
import { afterAll, beforeAll, describe } from 'vitest'
import { contract } from './contract/checks.ts'
import { protocolChecks } from './contract/protocols.ts'
import { lanesOf, manifest, pick, PROTOCOLS, servesProtocols, VARIANTS } from './contract/stacks.ts'
import { repoRoot } from '../engine/stacks/manifest.ts'
import { buildNative, startNativeServer } from '../engine/stacks/native.ts'
import type { ServerProcess } from '../engine/stacks/native.ts'
import { seedDatabase, startPostgres } from '../engine/stacks/postgres.ts'
import type { LocalPostgres } from '../engine/stacks/postgres.ts'
import { pgAvailableForTests } from '../engine/testing/pg.ts'

// --- native stacks --------------------------------------------------------------------------------

const nativeStacks = pick(
  'CANNONADE_NATIVE_STACKS',
  manifest.stacks.map((s) => s.name),
)

describe.skipIf(nativeStacks.length === 0 || !pgAvailableForTests())('native stacks', () => {
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
          runtime: stack.runtime,
          databaseUrl,
        }))
      })
    }
  }

  for (const stack of nativeStacks.filter(servesProtocols)) {
    describe(`${stack.name}${PROTOCOLS.label}`, () => {
      let server: ServerProcess | undefined
      beforeAll(async () => {
        if (!pg) throw new Error('PostgreSQL did not start')
        const db = `${stack.name.replace(/-/g, '_')}_protocols`
        await pg.createDatabase(db)
        const databaseUrl = pg.url(db)
        await seedDatabase(databaseUrl, path.join(repoRoot, manifest.seed), pg.pgBin)
        await buildNative(stack)
        server = await startNativeServer(stack, { databaseUrl, env: PROTOCOLS.env, timeoutMs: 60_000 })
        console.log(`[native] ${stack.name}${PROTOCOLS.label} at ${server.url}, TLS on ${server.tlsPort}`)
      }, 600_000)
      afterAll(async () => {
        await server?.stop()
      })
      protocolChecks(() => ({
        base: server?.url ?? 'http://server-not-started',
        tlsBase: `https://127.0.0.1:${server?.tlsPort ?? 1}`,
      }))
    })
  }
})
