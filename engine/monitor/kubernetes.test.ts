// The kubernetes monitor against the stand-in API server the agents' launcher is tested on
// (engine/testing/k8s-fake.ts: HTTPS, a kubeconfig that trusts it, a bearer token it checks), now
// with a workload's pods and the metrics API (metrics.k8s.io): pods by namespace and label
// selector, each pod's CPU and memory (its containers summed) exactly as the API gave them, limits
// from the pod spec, the kubeconfig read as the launcher reads it, and what it says when the
// cluster has no metrics-server, refuses, or has no such pods.
import { afterEach, describe, expect, it } from 'vitest'
import { KubeClient, loadKubeconfig } from '../kubernetes/kubernetes-client.ts'
import {
  FakeKubernetes,
  matchesSelector,
  type FakeKubernetesOptions,
  type WorkloadPod,
} from '../testing/k8s-fake.ts'
import { collector } from '../testing/monitor.ts'
import { testMonitor } from './index.ts'
import { KubernetesMonitor, parseQuantity } from './kubernetes.ts'
import type { KubernetesMonitorSpec } from '../config/schema-monitor.ts'

let fake: FakeKubernetes | null = null
afterEach(async () => {
  await fake?.close()
  fake = null
})

async function startFake(workload: WorkloadPod[], o: FakeKubernetesOptions = {}): Promise<FakeKubernetes> {
  fake = new FakeKubernetes(o)
  await fake.start()
  fake.workload = workload
  return fake
}

const pod = (
  name: string,
  namespace: string,
  labels: Record<string, string>,
  containers: WorkloadPod['containers'],
  phase?: string,
): WorkloadPod => ({
  name,
  namespace,
  labels,
  containers,
  ...(phase ? { phase } : {}),
})

/** Two web pods and a database in `shop`, and a web pod in `other`: what a selector must tell apart. */
const SHOP = (): WorkloadPod[] => [
  pod('web-1', 'shop', { app: 'web', tier: 'front' }, [
    { name: 'app', limits: { cpu: '500m', memory: '256Mi' }, usage: { cpu: '250m', memory: '64Mi' } },
    { name: 'sidecar', limits: { cpu: '1', memory: '64Mi' }, usage: { cpu: '1500000n', memory: '10240Ki' } },
  ]),
  pod('web-2', 'shop', { app: 'web', tier: 'front' }, [
    { name: 'app', limits: { cpu: '500m', memory: '256Mi' }, usage: { cpu: '0.75', memory: '100M' } },
    { name: 'sidecar', usage: { cpu: '2m', memory: '1Mi' } },
  ]),
  pod('db-0', 'shop', { app: 'db' }, [{ name: 'pg', usage: { cpu: '900m', memory: '1Gi' } }]),
  pod('web-9', 'other', { app: 'web' }, [{ name: 'app', usage: { cpu: '1', memory: '1Gi' } }]),
]

const monitor = (f: FakeKubernetes, spec: Partial<KubernetesMonitorSpec> = {}, intervalMs = 100) =>
  new KubernetesMonitor(
    { kind: 'kubernetes', selector: 'app=web', namespace: 'shop', ...spec },
    'shop-web',
    intervalMs,
    () => new KubeClient(loadKubeconfig({ KUBECONFIG: f.kubeconfig() }), { timeoutMs: 5000 }),
  )

describe('kubernetes monitor against the stand-in API server', () => {
  it('samples each pod the selector picks in the namespace: its containers’ usage summed, limits from its spec', async () => {
    const f = await startFake(SHOP())
    const m = monitor(f)
    const samples = collector()
    await m.start(samples.onSample, () => {})
    const [one, two] = await samples.next(2)
    await m.stop()
    expect([one?.instance, two?.instance]).toEqual(['web-1', 'web-2'])
    expect(one).toMatchObject({
      source: 'kubernetes',
      target: 'shop-web',
      state: 'Running',
      memoryBytes: 64 * 2 ** 20 + 10240 * 1024,
      memoryLimitBytes: 320 * 2 ** 20,
      cpuLimit: 1.5,
    })
    expect(one?.cpuPercent).toBeCloseTo(25.15, 10)
    // A container without a limit leaves the pod unbounded: no limit, not a partial sum.
    expect(two).toMatchObject({ memoryBytes: 100_000_000 + 2 ** 20, memoryLimitBytes: null, cpuLimit: null })
    expect(two?.cpuPercent).toBeCloseTo(75.2, 10)
    // Summed, as every view sums a target's instances: the workload's CPU and memory.
    expect(one!.cpuPercent! + two!.cpuPercent!).toBeCloseTo(100.35, 10)
    // Both lists by the selector, in the namespace, with the kubeconfig's token.
    const paths = f.requests.map((r) => r.path)
    expect(paths).toContain('/api/v1/namespaces/shop/pods?labelSelector=app%3Dweb')
    expect(paths).toContain('/apis/metrics.k8s.io/v1beta1/namespaces/shop/pods?labelSelector=app%3Dweb')
    expect(f.unauthorized).toBe(0)
  })

  it('follows the pods from tick to tick: new usage, a pod without metrics yet (no reading, not 0), one gone', async () => {
    const f = await startFake(SHOP())
    const m = monitor(f, { selector: 'tier in (front),app!=db' })
    const samples = collector()
    await m.start(samples.onSample, () => {})
    await samples.next(2)
    f.workload = [
      pod('web-1', 'shop', { app: 'web', tier: 'front' }, [
        { name: 'app', usage: { cpu: '1', memory: '1Gi' } },
      ]),
      pod('web-3', 'shop', { app: 'web', tier: 'front' }, [{ name: 'app' }], 'Pending'),
    ]
    // Samples of a tick that listed before the change may still come: wait for the new pod.
    let tick = await samples.next(2)
    while (!tick.some((s) => s.instance === 'web-3')) tick = await samples.next(2)
    await m.stop()
    expect(tick.map((s) => [s.instance, s.state, s.cpuPercent, s.memoryBytes])).toEqual([
      ['web-1', 'Running', 100, 2 ** 30],
      ['web-3', 'Pending', null, null],
    ])
  })

  it('takes the namespace of the kubeconfig’s context when the spec names none', async () => {
    const f = await startFake([
      pod('api-0', 'load', { app: 'api' }, [{ name: 'a', usage: { cpu: '10m', memory: '1Mi' } }]),
    ])
    const m = monitor(f, { namespace: undefined, selector: 'app=api' })
    const samples = collector()
    await m.start(samples.onSample, () => {})
    const [s] = await samples.next(1)
    await m.stop()
    expect(s).toMatchObject({ instance: 'api-0', cpuPercent: 1, memoryBytes: 2 ** 20 })
    expect(f.requests[0]?.path).toMatch(/^\/api\/v1\/namespaces\/load\/pods/)
  })

  it('says what is wrong: no metrics-server, a refusal, no such pods, no kubeconfig', async () => {
    const noMetrics = await startFake(SHOP(), { metricsApi: false })
    await expect(
      monitor(noMetrics).start(
        () => {},
        () => {},
      ),
    ).rejects.toMatchObject({
      code: 'unsupported',
      message: expect.stringContaining(
        'the cluster serves no metrics API (metrics.k8s.io): install metrics-server',
      ),
    })
    await noMetrics.close()
    const forbidden = await startFake(SHOP(), { forbid: /metrics\.k8s\.io/ })
    await expect(
      monitor(forbidden).start(
        () => {},
        () => {},
      ),
    ).rejects.toMatchObject({
      code: 'auth',
      message: expect.stringMatching(/403 .*cannot get it/),
    })
    await forbidden.close()
    const f = await startFake(SHOP())
    await expect(
      monitor(f, { selector: 'app=nothing' }).start(
        () => {},
        () => {},
      ),
    ).rejects.toMatchObject({
      code: 'not-found',
      message: expect.stringContaining('kubernetes monitor (pods app=nothing in namespace shop, kubeconfig'),
    })
    const noConfig = new KubernetesMonitor({ kind: 'kubernetes', selector: 'app=web' }, 't', 100, () =>
      KubeClient.fromKubeconfig({ KUBECONFIG: '/nonexistent/kubeconfig' }),
    )
    await expect(
      noConfig.start(
        () => {},
        () => {},
      ),
    ).rejects.toMatchObject({
      code: 'config',
      message: expect.stringContaining('kubeconfig /nonexistent/kubeconfig: does not exist'),
    })
  })

  it('the wizard’s Test button reads KUBECONFIG as the agents’ launcher does, and lists the pods', async () => {
    const f = await startFake(SHOP())
    const before = process.env.KUBECONFIG
    process.env.KUBECONFIG = f.kubeconfig()
    try {
      const r = await testMonitor({ kind: 'kubernetes', namespace: 'shop', selector: 'app=web' })
      expect(r).toMatchObject({ ok: true, instances: 2 })
      expect(r.message).toBe(
        '2 pods: web-1 (Running, 25.1 % CPU, 74.0 MiB); web-2 (Running, 75.2 % CPU, 96.4 MiB)',
      )
    } finally {
      if (before === undefined) delete process.env.KUBECONFIG
      else process.env.KUBECONFIG = before
    }
  })
})

describe('kubernetes quantities, selectors and spec', () => {
  it('parses quantities as the API writes them', () => {
    const cases: [string, number | null][] = [
      ['250m', 0.25],
      ['1', 1],
      ['1.5', 1.5],
      ['12345n', 12345e-9],
      ['7u', 7e-6],
      ['64Mi', 64 * 2 ** 20],
      ['10240Ki', 10240 * 1024],
      ['1Gi', 2 ** 30],
      ['100M', 1e8],
      ['2k', 2000],
      ['1e3', 1000],
      ['', null],
      ['12 Mi', null],
      ['abc', null],
      // No number a column can hold (issue 29, item 7): no reading, not Infinity.
      ['1e400', null],
      ['1e309', null],
      ['9e300', 9e300],
      ['1e300Ei', null],
      ['1'.repeat(400), null],
    ]
    for (const [q, want] of cases) expect(parseQuantity(q), q).toBe(want)
  })

  it('the stand-in reads selectors as the API server does', () => {
    const l = { app: 'web', tier: 'front' }
    expect(
      [
        'app=web',
        'app==web',
        'app!=db',
        'tier in (front,back)',
        'app notin (db)',
        'tier',
        '!gpu',
        'app=web,tier=front',
      ].every((s) => matchesSelector(l, s)),
    ).toBe(true)
    expect(
      ['app=db', 'tier in (back)', 'app notin (web)', '!tier', 'gpu'].some((s) => matchesSelector(l, s)),
    ).toBe(false)
  })

  const bad: [Record<string, unknown>, RegExp][] = [
    [{}, /monitor\.selector: .*selector/],
    [{ selector: '' }, /monitor\.selector: selector must not be empty/],
    [{ selector: 'app=web; rm -rf' }, /monitor\.selector: selector must be a label selector/],
    [{ selector: 'app=web', namespace: 'Shop_1' }, /monitor\.namespace: namespace must be a Kubernetes name/],
    [{ selector: 'app=web', kubeconfig: '/etc/x' }, /unknown field monitor\.kubeconfig/],
  ]
  for (const [fields, message] of bad) {
    it(`refuses ${JSON.stringify(fields)}, naming the field`, async () => {
      const r = await testMonitor({ kind: 'kubernetes', ...fields })
      expect(r).toMatchObject({ ok: false, code: 'config' })
      expect(r.message).toMatch(message)
    })
  }
})
