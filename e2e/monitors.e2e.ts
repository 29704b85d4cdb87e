// The wizard's monitor step draws every source's fields from its form (engine/config/monitor-form.ts):
// the fields its choices show, in order by keyboard, each with the schema's message beside it. It
// offers the prometheus and kubernetes sources, each with its fields and the Test button, in web
// mode against the real engine. A study with a Prometheus monitor (a real
// Prometheus scraping an exporter whose JVM figures the test sets) then plots its series against
// throughput on the study page. The Kubernetes cluster is the agents' stand-in API server with a
// workload's pods and the metrics API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fieldsOf, MONITOR_FORMS, shows, type FieldForm } from '../engine/config/monitor-form.ts'
import type { MonitorKind } from '../engine/config/schema-monitor.ts'
import { emptyMonitor, SPEC_KINDS } from '../renderer/src/views/wizard/monitorDraft.ts'
import { LivePage, StudyPage, WizardPage, type MonitoringStep } from './pages/pages.ts'
import { appPerTest } from './support/app.ts'
import { FakeKubernetes } from '../engine/testing/k8s-fake.ts'
import {
  JVM,
  jvmText,
  prometheusGate,
  startExporter,
  startPrometheus,
  type Exporter,
  type LocalPrometheus,
} from '../engine/testing/prometheus.ts'

const { start } = appPerTest()

/** For each kind, a value one of its fields refuses, and what the message beside it says. */
const REFUSED: Record<MonitorKind, { key: string; value: string; says: RegExp }> = {
  docker: { key: 'container', value: '../etc', says: /Docker container name/ },
  process: { key: 'port', value: '70000', says: /65535/ },
  cloudfoundry: { key: 'api', value: 'ftp://api.example.com', says: /http\(s\) URL/ },
  postgres: { key: 'stack', value: 'Node_HTTP', says: /bundled stack name/ },
  prometheus: { key: 'url', value: 'not a url', says: /http\(s\) URL of a Prometheus server/ },
  kubernetes: { key: 'namespace', value: 'Shop_NS', says: /Kubernetes name/ },
}

/** The test ids of the fields of a kind its choices show with these values, in the form's order. */
function shown(kind: MonitorKind, values: Record<string, unknown>): string[] {
  return fieldsOf(MONITOR_FORMS[kind])
    .filter((f) => shows(f, values))
    .map((f) => `monitor-0-${f.testId}`)
}

/** Tab from the kind picker through the fields: the ids that get focus, up to the Test button. */
async function tabOrder(monitoring: MonitoringStep): Promise<(string | null)[]> {
  await monitoring.kind(0).input.focus()
  const order: (string | null)[] = []
  for (let i = 0; i < 12; i++) {
    await monitoring.page.keyboard.press('Tab')
    const id = await monitoring.focused()
    if (id === 'monitor-0-test') break
    order.push(id)
  }
  return order
}

describe("the wizard's monitor editor", () => {
  it('draws every kind from its form: the fields its choices show, in order by Tab, each with its message', async () => {
    const app = await start()
    const wizard = await WizardPage.onDemoLoad(app, { connections: 1, duration: 1 })
    await wizard.next()
    const monitoring = wizard.monitoring
    expect(await monitoring.kindNames(0)).toEqual([
      'Not monitored',
      ...SPEC_KINDS.map((k) => MONITOR_FORMS[k].label),
    ])
    for (const kind of SPEC_KINDS) {
      await monitoring.kind(0).select(kind)
      const values: Record<string, unknown> = { ...emptyMonitor()[kind] }
      expect(await tabOrder(monitoring), kind).toEqual(shown(kind, values))
      // Each option of each choice shows its own fields, and only those, in order.
      const fields = fieldsOf(MONITOR_FORMS[kind])
      const choices = fields.filter(
        (f): f is Extract<FieldForm, { control: 'select' }> =>
          f.control === 'select' && fields.some((x) => x.when?.[f.key]),
      )
      for (const choice of choices)
        for (const { value } of choice.options) {
          await monitoring.field(0, kind, choice.key as never).select(value)
          values[choice.key] = value
          expect(await tabOrder(monitoring), `${kind} ${choice.key}=${value}`).toEqual(shown(kind, values))
        }
      for (const choice of choices)
        await monitoring.field(0, kind, choice.key as never).select(choice.options[0]!.value)
      // The schema's message beside the field it is about, tied to it for assistive technology.
      const refused = REFUSED[kind]
      const field = monitoring.field(0, kind, refused.key as never)
      await field.fill(refused.value)
      await expect.poll(() => field.message(), { message: kind }).toMatch(refused.says)
      expect(await field.invalid(), kind).toBe(true)
      expect(await monitoring.testButton(0).isDisabled(), kind).toBe(true)
    }
  })
})
const gate = prometheusGate('the wizard’s Prometheus monitor')

describe.skipIf(gate.skip)('a Prometheus monitor from the wizard', () => {
  let exporter: Exporter | undefined
  let prom: LocalPrometheus | undefined
  beforeAll(async () => {
    if (gate.reason)
      throw new Error(`Prometheus required (CANNONADE_REQUIRE_DOCKER=1) but unavailable: ${gate.reason}`)
    const since = Date.now() - 60_000
    exporter = await startExporter(() => jvmText('client', since))
    prom = await startPrometheus([{ job: 'jvm', address: exporter.address }])
    await prom.scraped(3)
  }, 120_000)
  afterAll(async () => {
    await prom?.stop()
    await exporter?.stop()
  })

  it('Test finds the series, the config names them, and the study plots them against throughput', async () => {
    const app = await start()
    const { page } = app
    const wizard = await WizardPage.onDemoLoad(app, { connections: 1, duration: 1 })
    await wizard.setCooldown(0)
    await wizard.setSweep('load.connections', '1, 2')
    await wizard.next()
    const monitoring = wizard.monitoring
    await monitoring.kind(0).select('prometheus')
    await monitoring.field(0, 'prometheus', 'url').fill(prom!.url)
    await monitoring.field(0, 'prometheus', 'preset').select('jvm')
    await monitoring.field(0, 'prometheus', 'labels').fill('job=jvm')
    await monitoring.field(0, 'prometheus', 'rateWindow').fill('5s')
    // A scrape that timed out on a loaded machine marks the gauges stale for a moment (Prometheus
    // then answers nothing for them): Test again, as a user would, a few times at most.
    for (let attempt = 1; ; attempt++) {
      const text = await monitoring.test(0)
      if (text.startsWith('✓') || attempt === 4 || !text.includes('nothing for')) break
      await prom!.scraped(1) // the next scrape, not a fixed pause
    }
    expect(await monitoring.testResult(0).textContent()).toMatch(
      new RegExp(
        `^✓ 1 series: ${exporter!.address} \\(running, [\\d.]+ % CPU, 200\\.0 MiB, gc_pause_ratio [\\d.]+ %, heap_bytes 117\\.7 MiB, threads 42\\) \\(1 instance\\)$`,
      ),
    )
    await app.screenshot('40-wizard-prometheus-monitor')
    await wizard.next()
    expect(await wizard.review.yaml()).toMatch(
      /kind: prometheus\s+url: http:\/\/127\.0\.0\.1:\d+\s+preset: jvm\s+labels:\s+job: jvm\s+rateWindow: 5s/,
    )
    await wizard.setName('e2e: prometheus study')
    await wizard.start()
    const live = new LivePage(page)
    await live.studyBanner.waitFor()
    await expect
      .poll(() => live.studyBanner.textContent(), { timeout: 60_000 })
      .toMatch(/^Run 2 of 2 of the study/)
    await live.openStudy()
    const study = new StudyPage(page)
    await study.waitForPoints(0, 2)
    await study.complete()

    // The series the monitor brought, named ones first; the one picked is drawn against throughput.
    const series = study.series(0)
    expect(await study.seriesChoices(0)).toEqual([
      'gc_pause_ratio',
      'heap_bytes',
      'threads',
      'cpu_percent',
      'memory_bytes',
    ])
    await study.seriesPicker(0).selectOption('heap_bytes')
    await expect.poll(() => series.getAttribute('data-metric')).toBe('heap_bytes')
    await study.seriesChart(0).rendered()
    await app.screenshot('41-study-series-against-throughput')
    // What it plots: the heap the exporter was set to, at each value's throughput.
    const [listed] = await app.engine.studies.list()
    const results = await app.engine.studies.get(listed!.studyId)
    const points = results.targets[0]!.points
    expect(points.map((p) => p.series?.find((f) => f.metric === 'heap_bytes')?.mean)).toEqual([
      JVM.heap,
      JVM.heap,
    ])
    expect(points.every((p) => p.series?.find((f) => f.metric === 'threads')?.mean === JVM.threads)).toBe(
      true,
    )
  })
})

describe('a Kubernetes monitor from the wizard', () => {
  let fake: FakeKubernetes | undefined
  const before = process.env.KUBECONFIG
  afterAll(async () => {
    await fake?.close()
    if (before === undefined) delete process.env.KUBECONFIG
    else process.env.KUBECONFIG = before
  })

  it('Test lists the pods the selector picks, from the kubeconfig the engine reads', async () => {
    fake = new FakeKubernetes()
    await fake.start()
    fake.workload = [1, 2].map((i) => ({
      name: `web-${i}`,
      namespace: 'shop',
      labels: { app: 'web' },
      containers: [{ name: 'app', usage: { cpu: `${i * 250}m`, memory: `${i * 64}Mi` } }],
    }))
    // The engine of web mode runs in this process: its kubeconfig is this environment's.
    process.env.KUBECONFIG = fake.kubeconfig()
    const app = await start()
    const wizard = await WizardPage.onDemoLoad(app, { connections: 1, duration: 1 })
    await wizard.next()
    const monitoring = wizard.monitoring
    await monitoring.kind(0).select('kubernetes')
    await monitoring.field(0, 'kubernetes', 'selector').fill('app=web')
    await monitoring.field(0, 'kubernetes', 'namespace').fill('shop')
    expect(await monitoring.test(0)).toBe(
      '✓ 2 pods: web-1 (Running, 25.0 % CPU, 64.0 MiB); web-2 (Running, 50.0 % CPU, 128.0 MiB) (2 instances)',
    )
    await wizard.next()
    expect(await wizard.review.yaml()).toMatch(/kind: kubernetes\s+namespace: shop\s+selector: app=web/)
  })
})
