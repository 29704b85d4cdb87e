// Every template runs shortened against the demo target, through the runner as a run or a study
// does (a stack a template names or sweeps is recorded, not started: templates.docker.test.ts runs
// them against their stacks). Slow: 24 templates, each seconds of load.
import http2 from 'node:http2'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseRunConfig } from '../config/load.ts'
import { changesStack, type StackSetting } from '../config/sweep.ts'
import { ranWell, recordedStacks, shortenTemplate as shorten } from '../testing/templates.ts'
import { handle, startDemoServer, type DemoServer } from '../demo/server.ts'
import { selfSigned } from '../testing/tls.ts'
import { closer } from '../testing/h2-targets.ts'
import { openDb } from '../db/db.ts'
import { runConfig, tempDbPath } from '../testing/run-config.ts'
import { runStudy } from './run-study.ts'
import { listTemplates } from './templates.ts'

const templates = listTemplates()

/** The demo's answers over HTTP/2: h2c by prior knowledge, or h2 over TLS (a throwaway certificate). */
async function demoOverH2(tls: boolean): Promise<{ url: string; open(): number; close(): Promise<void> }> {
  const handler = handle as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void
  const server = tls ? http2.createSecureServer(selfSigned(), handler) : http2.createServer(handler)
  const close = closer(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open: () => close.open(),
    close,
  }
}

describe('templates, shortened, against the demo target', () => {
  let demo: DemoServer
  let h2c: Awaited<ReturnType<typeof demoOverH2>>
  let h2: Awaited<ReturnType<typeof demoOverH2>>
  beforeAll(async () => {
    demo = await startDemoServer()
    h2c = await demoOverH2(false)
    h2 = await demoOverH2(true)
  })
  afterAll(async () => {
    // A run closes its connections when it ends; one still open here would be a leak to look into
    // (the servers are closed either way, so the file cannot hang on it).
    for (const [name, server] of [
      ['h2c', h2c],
      ['h2', h2],
    ] as const)
      if (server.open() > 0)
        console.log(`[evidence] ${server.open()} ${name} sockets still open after the last run`)
    await demo.close()
    await h2c.close()
    await h2.close()
  })

  for (const t of templates) {
    it(`${t.id}`, async () => {
      const onDemo = (u: string) => {
        const url = new URL(u)
        return demo.url + url.pathname + url.search
      }
      // No stack to start here: the stacks are recorded, not started (the Docker tests start them).
      // An HTTP/2 target gets the demo's answers over its protocol.
      const short = shorten(t.config, onDemo, { stack: true, monitors: false })
      const config = parseRunConfig({
        ...short,
        targets: short.targets.map((x) =>
          x.protocol === 'http1'
            ? x
            : {
                ...x,
                url: (x.protocol === 'h2' ? h2 : h2c).url + new URL(x.url).pathname + new URL(x.url).search,
              },
        ),
      })
      if (config.sweep) {
        const dbPath = tempDbPath()
        const applied: StackSetting[] = []
        const { runs } = await runStudy(openDb(dbPath), dbPath, config, {
          stacks: recordedStacks(applied),
        })
        const size = config.sweep.values.length * (config.sweep.by?.values.length ?? 1)
        expect(runs.length, t.id).toBe(size)
        ranWell(
          config,
          runs.map((r) => r.summary),
          t.id,
        )
        if (changesStack(config.sweep.path)) expect(applied.length, t.id).toBeGreaterThan(0)
        return
      }
      const { summary } = await runConfig(config)
      ranWell(config, [summary], t.id)
    })
  }
})
