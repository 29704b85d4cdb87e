import { describe, expect, it } from 'vitest'
import { FakeCloudFoundry } from '../testing/cf-fake.ts'
import { createGeneratorMonitor, createMonitor, testMonitor } from './index.ts'
import { collector, expectBusyThenIdle } from '../testing/monitor.ts'
import { MonitorError } from './types.ts'

describe('testMonitor (the wizard test button)', () => {
  it('names the bad field of an invalid spec', async () => {
    const result = await testMonitor({ kind: 'process', pid: 1, port: 80 })
    expect(result).toMatchObject({ ok: false, code: 'config', instances: 0 })
    expect(result.message).toMatch(/^monitor\.pid: set exactly one of pid or port/)
  })

  it('lists what it found: this very process', async () => {
    const result = await testMonitor({ kind: 'process', pid: process.pid }, { intervalMs: 100 })
    expect(result).toMatchObject({ ok: true, instances: 1 })
    expect(result.message).toMatch(
      new RegExp(`^1 process tree: ${process.pid} \\(running, [\\d.]+ % CPU, [\\d.]+ MiB\\)$`),
    )
  })

  it('reports every Cloud Foundry instance, or the reason it cannot', async () => {
    const cf = new FakeCloudFoundry()
    cf.addApp({
      name: 'ads',
      space: 'dev',
      instances: [{ state: 'RUNNING', cpu: 0.5, mem: 2 ** 26 }, { state: 'CRASHED' }],
    })
    await cf.start()
    try {
      const spec = {
        kind: 'cloudfoundry',
        api: cf.url,
        app: 'ads',
        auth: { grant: 'password', username: 'alice' },
      }
      const ok = await testMonitor(spec, { secrets: { password: 's3cret' } })
      expect(ok).toMatchObject({ ok: true, instances: 2 })
      expect(ok.message).toBe('app ads: 2 instances: 0 (RUNNING, 50.0 % CPU, 64.0 MiB); 1 (CRASHED)')
      const bad = await testMonitor(spec, { secrets: { password: 'nope' } })
      expect(bad).toMatchObject({ ok: false, code: 'auth', instances: 0 })
    } finally {
      await cf.close()
    }
  })

  it('fails a missing process with not-found', async () => {
    expect(await testMonitor({ kind: 'process', pid: 2 ** 22 + 9 })).toMatchObject({
      ok: false,
      code: 'not-found',
    })
  })
})

describe('generator monitor', () => {
  it("sees the load generator's own CPU", async () => {
    const monitor = createGeneratorMonitor('gen', { intervalMs: 200 })
    const samples = collector()
    await monitor.start(samples.onSample, () => {})
    try {
      await samples.next(1)
      // Burn in 50 ms slices, letting the sampler's timer in between, until 4 samples are in.
      const before = { cpu: process.cpuUsage(), at: performance.now() }
      let done = false
      const pending = samples.next(4).finally(() => (done = true))
      while (!done) {
        const slice = Date.now() + 50
        while (Date.now() < slice);
        await new Promise((r) => setImmediate(r))
      }
      const busy = await pending
      const used = process.cpuUsage(before.cpu)
      const truth = ((used.user + used.system) / 1000 / (performance.now() - before.at)) * 100
      await samples.next(1)
      expectBusyThenIdle(busy.slice(1), await samples.next(3), truth)
      expect(busy[0]).toMatchObject({ source: 'generator', target: 'gen', instance: String(process.pid) })
      expect(busy[0]?.memoryBytes).toBeGreaterThan(0)
    } finally {
      await monitor.stop()
    }
  })

  it('refuses a sampling interval that would be a busy loop', () => {
    expect(() => createMonitor({ kind: 'process', pid: 1 }, 't', { intervalMs: 1 })).toThrow(MonitorError)
  })
})
