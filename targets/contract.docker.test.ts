// The API contract every target stack must meet (targets/contract/checks.ts), checked against the
// compose stacks started by the product's Stacks, each as it starts by default and chained twice
// through itself without a pool, and (the stacks that serve them) with HTTP/2 and TLS on
// (contract/protocols.ts). CANNONADE_REQUIRE_DOCKER=1 turns "no Docker" from a skip into a
// failure; CANNONADE_DOCKER_STACKS picks stacks (comma list; default all; "none" for none).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contract } from './contract/checks.ts'
import { protocolChecks } from './contract/protocols.ts'
import { lanesOf, manifest, pick, PROTOCOLS, servesProtocols, VARIANTS } from './contract/stacks.ts'
import { freePort } from '../engine/stacks/postgres.ts'
import { Stacks, stackStateDir } from '../engine/stacks/stacks.ts'
import { dockerGate } from '../engine/testing/docker.ts'
import { tempDbPath } from '../engine/testing/run-config.ts'

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
            runtime: stack.runtime,
            databaseUrl,
          }))
        })
      }

      if (servesProtocols(stack)) {
        describe(`${stack.name}${PROTOCOLS.label}`, () => {
          let tlsPort = 0
          beforeAll(async () => {
            port ||= await freePort()
            url = `http://127.0.0.1:${port}`
            tlsPort = await freePort()
            const began = Date.now()
            // The same project restarted with HTTP/2 and TLS on: its TLS port published too.
            await stacks.up(stack.name, { port, tlsPort, env: PROTOCOLS.env })
            console.log(`[compose] ${stack.name}${PROTOCOLS.label} up + healthy in ${Date.now() - began} ms`)
          }, 900_000)
          protocolChecks(() => ({ base: url, tlsBase: `https://127.0.0.1:${tlsPort}` }))
        })
      }
    })
  }
})
