// The prometheus and kubernetes monitors on a real run's timeline. First the closing evidence of
// issue 22: the node-http target stack as a local process under CPU-bound load (/compute), watched
// at once by the process monitor (its CPU time from /proc) and by a real Prometheus scraping its
// /metrics (the nodejs preset: rate of process_cpu_seconds_total). Both read the same process's CPU
// time, so over the loaded seconds they must agree; the figures are printed. Then the kubernetes
// monitor's pods, each a row per second, summed per target as every view sums them.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { targetSeconds } from '../store/resource-samples.ts'
import { FakeKubernetes } from '../testing/k8s-fake.ts'
import {
  compareCpuSeconds,
  cpuEvidenceMonitors,
  prometheusGate,
  startNodeHttp,
  startPrometheus,
  type Exporter,
  type LocalPrometheus,
  resourceRowsOf,
  type ResourceRow,
} from '../testing/prometheus.ts'
import { runConfig } from '../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'

type Row = ResourceRow

const gate = prometheusGate('the prometheus run test')
const SECONDS = 9
/** The nodejs preset's rate window, seconds. */
const WINDOW = 3

describe.skipIf(gate.skip)(
  'a run with a Prometheus series beside the process monitor’s, for the same server',
  () => {
    let app: (Exporter & { port: number; pid: number }) | undefined
    let prom: LocalPrometheus | undefined
    beforeAll(async () => {
      if (gate.reason)
        throw new Error(`Prometheus required (CANNONADE_REQUIRE_DOCKER=1) but unavailable: ${gate.reason}`)
      app = await startNodeHttp()
      prom = await startPrometheus([{ job: 'node-http', address: app.address }])
      await prom.scraped(3)
    }, 120_000)
    afterAll(async () => {
      await prom?.stop()
      await app?.stop()
    })

    it('stores both on the run’s timeline, and they count the same CPU seconds', async () => {
      const { summary, db, t0Epoch } = await runConfig({
        version: 1,
        name: 'prometheus beside process',
        targets: [
          {
            name: 'node-http',
            url: `http://${app!.address}/compute?iterations=3000`,
            monitor: [
              { kind: 'process', port: app!.port },
              ...cpuEvidenceMonitors(prom!.url, 'node-http', WINDOW),
            ],
          },
        ],
        load: { connections: 4, duration: SECONDS },
        cooldownSeconds: 0,
      })
      expect(summary.status).toBe('done')
      expect(summary.warnings).toEqual([])
      const rows = resourceRowsOf(db, summary.runId, 'node-http')
      // The named series are rows of their own, on the same timeline.
      expect(new Set(rows.filter((r) => r.metric).map((r) => r.metric))).toEqual(
        new Set(['heap_bytes', 'event_loop_lag_seconds', 'cpu_seconds_total', 'scraped_at_seconds']),
      )
      // Every second of the run, the last ones too (read once settled, when the monitor stopped).
      const preset = rows.filter((r) => r.source === 'prometheus' && r.metric === null)
      const seconds = new Set(preset.filter((r) => r.t >= 0).map((r) => Math.floor(r.t)))
      for (let s = 0; s < SECONDS; s++) expect(seconds.has(s), `second ${s}`).toBe(true)
      const c = compareCpuSeconds(rows, { source: 'process', t0Epoch, seconds: SECONDS, window: WINDOW })
      console.log(`[evidence] node-http (pid ${app!.pid}) under load, ${c.text}`)
      expect(c.to - c.from).toBeGreaterThanOrEqual(SECONDS - 4)
      // Load enough for the comparison to mean something, whatever else the machine runs.
      expect(c.other).toBeGreaterThan(0.25)
      expect(Math.abs(c.prometheus - c.other) / c.other).toBeLessThan(0.05)
    })
  },
)

describe('a run with a kubernetes monitor', () => {
  let fake: FakeKubernetes | undefined
  let target: CountingTarget | undefined
  const before = process.env.KUBECONFIG
  afterEach(async () => {
    await fake?.close()
    await target?.close()
    if (before === undefined) delete process.env.KUBECONFIG
    else process.env.KUBECONFIG = before
  })

  it('keeps each pod per second, and the target’s figure is their sum', async () => {
    fake = new FakeKubernetes()
    await fake.start()
    fake.workload = ['a', 'b'].map((p, i) => ({
      name: `web-${p}`,
      namespace: 'shop',
      labels: { app: 'web' },
      containers: [{ name: 'app', usage: { cpu: `${(i + 1) * 100}m`, memory: `${(i + 1) * 32}Mi` } }],
    }))
    process.env.KUBECONFIG = fake.kubeconfig()
    target = await startTarget()
    const { summary, db } = await runConfig({
      version: 1,
      name: 'pods',
      targets: [
        {
          name: 'web',
          url: `${target.url}/x`,
          monitor: { kind: 'kubernetes', namespace: 'shop', selector: 'app=web' },
        },
      ],
      load: { connections: 1, duration: 2 },
      cooldownSeconds: 0,
    })
    expect(summary.warnings).toEqual([])
    const rows = db
      .prepare(
        "SELECT t, instance, cpu_percent, memory_bytes FROM resource_samples WHERE run_id = ? AND source = 'kubernetes' AND t >= 0 AND t < 2",
      )
      .all(summary.runId) as Row[]
    expect(new Set(rows.map((r) => r.instance))).toEqual(new Set(['web-a', 'web-b']))
    expect(
      rows
        .filter((r) => r.instance === 'web-a')
        .every((r) => r.cpu_percent === 10 && r.memory_bytes === 32 * 2 ** 20),
    ).toBe(true)
    expect(
      rows
        .filter((r) => r.instance === 'web-b')
        .every((r) => r.cpu_percent === 20 && r.memory_bytes === 64 * 2 ** 20),
    ).toBe(true)
    // Each tick reads both pods at once: every second with a reading holds both, summed. (A busy
    // machine may skip a tick, so not every second need have one.)
    const perSecond = [...targetSeconds(db, summary.runId).get('web')!].filter(([t]) => t >= 0 && t < 2)
    expect(perSecond.length).toBeGreaterThan(0)
    for (const [, s] of perSecond) expect(s).toMatchObject({ cpuPercent: 30, memoryBytes: 96 * 2 ** 20 })
  })
})
