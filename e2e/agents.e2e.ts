// Load agents in the web UI against the real engine: the wizard's Load generators (by keyboard),
// a 2-agent local run, the live agents table, and run detail's per-agent breakdown checked against
// the run's stored figures (the agents' requests add up to the run's).
import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import type { AgentJoin } from '../engine/api/types.ts'
import { pgAvailableForTests, startPg } from '../engine/testing/pg.ts'
import { LivePage, RunDetailPage, StudyPage, WizardPage } from './pages/pages.ts'
import { appPerTest, ROOT } from './support/app.ts'
import { demoBase } from './support/runs.ts'

const { start } = appPerTest()

describe('load agents in the app', () => {
  it('starts a 2-agent local run from the wizard, shows the agents live and per agent in run detail', async () => {
    const app = await start()
    const { page } = app
    const wizard = await WizardPage.onDemoLoad(app, { connections: 4, duration: 4 })
    await wizard.setRounds(1)
    await wizard.setCooldown(0)

    // The choices are one radio group: arrow keys move through them.
    const load = wizard.load
    const choice = (v: 'machine' | 'local' | 'docker' | 'other') => load.generators(v)
    expect(await choice('machine').isChecked()).toBe(true)
    await choice('machine').focus()
    await page.keyboard.press('ArrowRight')
    expect(await choice('local').isChecked()).toBe(true)
    await load.field('agents-count').fill(2)
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('ArrowRight')
    expect(await choice('docker').isChecked()).toBe(true)
    expect(await load.agentsStore.textContent()).toContain('CANNONADE_STORE_URL')
    // Agents started by hand: a line for each index to run once the run waits for them.
    await choice('other').check()
    const lines = ((await load.agentsLine.textContent()) ?? '').split('\n')
    expect(lines).toHaveLength(2)
    lines.forEach((line, i) => {
      expect(line).toContain(`CANNONADE_AGENT_INDEX=${i}`)
      expect(line).toContain('CANNONADE_AGENT_COUNT=2')
      expect(line).toMatch(/cannonade agent$/)
      expect(line).not.toContain('postgres://')
    })
    await app.screenshot('40-wizard-load-generators-other')
    await choice('local').check()
    expect(await load.agentsStore.count()).toBe(0)
    await app.screenshot('41-wizard-load-generators-local')
    await wizard.next()
    await wizard.next()
    await wizard.setName('e2e: two load agents')
    await expect.poll(() => wizard.review.yaml()).toContain('e2e: two load agents')
    expect(await wizard.review.yaml()).toMatch(/agents:\s+count: 2\s+on: local/)
    const runId = await wizard.start()

    // Live: both agents, running, each with its own requests in the last second.
    const live = new LivePage(page)
    await live.agent(0, 'running').waitFor()
    await live.agent(1, 'running').waitFor()
    // The agents show as they join, before any load; their requests come with the first second.
    await live.agentHasRequests(1)
    expect(await live.agentRows()).toBe(2)
    await app.screenshot('42-live-agents')
    expect(await live.waitForEnd()).toBe('done')

    const run = await app.engine.runs.get(runId)
    const d = run.distribution
    expect(d?.agents).toBe(2)
    expect(d?.on).toBe('local')
    const total = run.results[0]!.requests
    const own = d!.perAgent.map((a) => a.requests)
    expect(own.every((n) => n > 0)).toBe(true)
    expect(own[0]! + own[1]!).toBe(total)
    // Once ended, the live table shows how each agent ended and its own requests, as stored.
    await live.agent(1, 'done').waitFor()
    for (const i of [0, 1]) expect(await live.agentRequests(i)).toBe(own[i])
    await app.screenshot('43-live-agents-done')

    // Run detail: the breakdown per agent is the stored one, and its sum is the run's total.
    await live.openDetail()
    const detail = new RunDetailPage(page)
    await detail.agentsTable.waitFor()
    const segment = `${run.results[0]!.target}#1`
    for (const a of d!.perAgent) {
      expect(await detail.agentFigure(a.index, segment, 'requests')).toBe(a.results[0]!.requests)
      expect(await detail.agentFigure(a.index, segment, 'throughput')).toBe(a.results[0]!.throughput)
    }
    expect(await detail.agentsTotal('sum', segment, 'requests')).toBe(total)
    expect(await detail.agentsTotal('run', segment, 'requests')).toBe(total)
    // Each agent's throughput is over its own window, which is never longer than the run's (the
    // longest of them), so theirs add up to at least the run's.
    const sum = d!.perAgent.reduce((a, x) => a + x.results[0]!.throughput, 0)
    expect(sum).toBeGreaterThanOrEqual(run.results[0]!.throughput - 0.02)
    await detail.agentsChart.plot.waitFor()
    await detail.agents.scrollIntoViewIfNeeded()
    await app.screenshot('44-detail-agents')
  })

  it("a study of the agent count plots throughput against the monitored instances' CPU", async () => {
    const app = await start()
    const { page } = app
    const demo = await demoBase(app)
    // The demo target is served by the engine's process: the process monitor finds it by its port.
    const { studyId } = await app.engine.runs.start({
      version: 1,
      name: 'e2e: agents sweep',
      targets: [
        {
          name: 'demo',
          url: `${demo}/ads?limit=20`,
          monitor: { kind: 'process', port: Number(new URL(demo).port) },
        },
      ],
      load: { connections: 4, duration: 3 },
      agents: { count: 1, on: 'local' },
      cooldownSeconds: 0,
      sweep: { path: 'agents.count', values: [1, 2] },
    })
    await app.open(`#/studies/${studyId}`)
    const study = new StudyPage(page)
    await study.waitForPoints(0, 2)
    await study.complete()
    const results = await app.engine.studies.get(studyId!)
    const points = [...results.targets[0]!.points].sort((a, b) => a.value - b.value)
    expect(points.map((p) => p.scaling?.instances)).toEqual([1, 1])
    // The table shows the stored figures, one row per agent count.
    for (const p of points) {
      expect(await study.scalingPeakCpu(0, p.value)).toBe(p.scaling!.peakCpu)
      expect(p.scaling!.seconds.length).toBeGreaterThan(0)
    }
    await study.scalingChart(0).rendered()
    await study.scaling(0).scrollIntoViewIfNeeded()
    await app.screenshot('45-study-scaling')
  })

  it('starts a run of hand-started agents ("other") from the wizard: it waits, one joins, the run ends', async (ctx) => {
    // pgAvailableForTests prints why when it is not.
    if (!pgAvailableForTests()) return ctx.skip('no PostgreSQL for the agents to coordinate through')
    const pg = await startPg({ durable: false })
    try {
      const app = await start({ agentStoreUrl: pg.url })
      const { page } = app
      const joins: AgentJoin[] = []
      const off = app.engine.runs.onAgents((e) => {
        if (e.join) joins.push(e.join)
      })
      const wizard = await WizardPage.onDemoLoad(app, { connections: 2, duration: 2 })
      await wizard.setRounds(1)
      await wizard.setCooldown(0)
      await wizard.load.generators('other').check()
      await wizard.load.field('agents-count').fill(1)
      expect(await wizard.load.agentsLine.textContent()).toContain('CANNONADE_AGENT_INDEX=0')
      await wizard.next()
      await wizard.next()
      expect(await wizard.review.yaml()).toMatch(/agents:\s+count: 1\s+on: external/)
      const runId = await wizard.start()
      // The run starts no agent: it waits at its barrier, saying what each agent runs.
      await expect.poll(() => joins.length, { timeout: 30_000 }).toBeGreaterThan(0)
      off()
      const join = joins[0]!
      expect(join.command).toContain(`CANNONADE_RUN=${join.runKey}`)
      expect(join.command).not.toContain(pg.password)
      // An agent started by hand, as the line says (with the store's URL itself, password included).
      const agent = spawn(process.execPath, [`${ROOT}bin/cannonade.mjs`, 'agent'], {
        env: {
          ...process.env,
          CANNONADE_RUN: join.runKey,
          CANNONADE_AGENT_COUNT: '1',
          CANNONADE_AGENT_INDEX: '0',
          CANNONADE_STORE_URL: pg.url,
        },
        stdio: 'ignore',
      })
      try {
        expect(await new LivePage(page).waitForEnd(90_000)).toBe('done')
        const run = await app.engine.runs.get(runId)
        expect(run.distribution?.agents).toBe(1)
        expect(run.results[0]?.requests).toBeGreaterThan(0)
      } finally {
        agent.kill()
      }
    } finally {
      await pg.stop()
    }
  })
})
