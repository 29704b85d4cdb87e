// Every template runs shortened against the demo target, through the runner as a run or a study
// does (a stack a template names or sweeps is recorded, not started: templates.docker.test.ts runs
// them against their stacks). Slow: 24 templates, each seconds of load.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseRunConfig } from '../config/load.ts'
import { changesStack, type StackSetting } from '../config/sweep.ts'
import { ranWell, recordedStacks, shortenTemplate as shorten } from '../testing/templates.ts'
import { startDemoServer, type DemoServer } from '../demo/server.ts'
import { openDb } from '../store/db.ts'
import { runConfig, tempDbPath } from '../testing/run.ts'
import { runStudy } from './run.ts'
import { listTemplates } from './templates.ts'

const templates = listTemplates()

describe('templates, shortened, against the demo target', () => {
  let demo: DemoServer
  beforeAll(async () => {
    demo = await startDemoServer()
  })
  afterAll(async () => {
    await demo.close()
  })

  for (const t of templates) {
    it(`${t.id}`, async () => {
      const onDemo = (u: string) => {
        const url = new URL(u)
        return demo.url + url.pathname + url.search
      }
      // No stack to start here: the stacks are recorded, not started (the Docker tests start them).
      const config = parseRunConfig(shorten(t.config, onDemo, { stack: true, monitors: false }))
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
