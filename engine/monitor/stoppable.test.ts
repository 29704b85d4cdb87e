// Every monitor kind createMonitor makes is wrapped by stoppable() (issue 29, item 5): a monitor
// whose first answer comes only after the run ended starts no loop, reports no sample and no error,
// and is not called again. Each kind's class is replaced here by one fake that behaves as the real
// ones do (start awaits a first answer, then starts a loop that samples until stop; a stop before
// the loop exists ends nothing), so the test needs no Docker, database or cluster. The kinds come
// from the schema's own list: a new kind fails here until its module is replaced below and it has
// a spec in SPECS, and then fails for real if createMonitor does not wrap it.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MONITOR_KINDS, MonitorSpecSchema } from '../config/schema-monitor.ts'
import type { MonitorKind, MonitorSpec } from '../config/schema-monitor.ts'
import { createMonitor } from './index.ts'
import { stoppable } from './stoppable.ts'
import { MonitorError } from './types.ts'
import type { ErrorHandler, Monitor, ResourceSample, SampleHandler } from './types.ts'

const fakes = vi.hoisted(() => {
  const TICK_MS = 2
  /** One monitor of a kind, as the real ones behave around their first answer. */
  class FakeMonitor {
    static made: FakeMonitor[] = []
    readonly kind: string
    starts = 0
    stops = 0
    /** Loop ticks: each is a call to the source and a sample. */
    ticks = 0
    loop: NodeJS.Timeout | undefined
    #answer: { resolve: () => void; reject: (e: Error) => void } | undefined
    #onError: ((e: Error) => void) | undefined

    constructor(kind: string) {
      this.kind = kind
      FakeMonitor.made.push(this)
    }

    /** The source's first answer, which start awaits. */
    answer(): void {
      this.#answer?.resolve()
    }

    fail(error: Error): void {
      this.#answer?.reject(error)
    }

    /** The source failing later, as a running loop reports it. */
    laterError(error: Error): void {
      this.#onError?.(error)
    }

    async start(onSample: (s: unknown) => void, onError: (e: Error) => void): Promise<void> {
      this.starts++
      this.#onError = onError
      await new Promise<void>((resolve, reject) => (this.#answer = { resolve, reject }))
      onSample(sample(this.kind)) // the first answer's own sample, as Cloud Foundry's start gives
      this.loop = setInterval(() => {
        this.ticks++
        onSample(sample(this.kind))
      }, TICK_MS)
    }

    async stop(): Promise<void> {
      this.stops++
      clearInterval(this.loop)
      this.loop = undefined
    }
  }
  const sample = (kind: string) => ({
    t: Date.now(),
    source: kind,
    target: 't',
    instance: 'i',
    cpuPercent: 1,
    memoryBytes: 1,
    memoryLimitBytes: null,
    cpuLimit: null,
    state: 'running',
  })
  const of = (kind: string) =>
    class extends FakeMonitor {
      constructor() {
        super(kind)
      }
    }
  return { FakeMonitor, of, TICK_MS }
})

vi.mock('./docker.ts', async (real) => ({ ...(await real()), DockerMonitor: fakes.of('docker') }))
vi.mock('./process.ts', async (real) => ({ ...(await real()), ProcessMonitor: fakes.of('process') }))
vi.mock('./cloudfoundry.ts', async (real) => ({
  ...(await real()),
  CloudFoundryMonitor: fakes.of('cloudfoundry'),
}))
vi.mock('./postgres.ts', async (real) => ({ ...(await real()), PostgresMonitor: fakes.of('postgres') }))
vi.mock('./prometheus.ts', async (real) => ({
  ...(await real()),
  PrometheusMonitor: fakes.of('prometheus'),
}))
vi.mock('./kubernetes.ts', async (real) => ({
  ...(await real()),
  KubernetesMonitor: fakes.of('kubernetes'),
}))

/** A valid spec of each kind, as a config holds it (the schema reads it below). */
const SPECS: Record<MonitorKind, Record<string, unknown>> = {
  docker: { kind: 'docker', container: 'shop' },
  process: { kind: 'process', pid: 1 },
  cloudfoundry: {
    kind: 'cloudfoundry',
    api: 'https://api.example',
    app: 'shop',
    auth: { grant: 'password', username: 'alice' },
  },
  postgres: { kind: 'postgres', url: 'postgres://app@127.0.0.1:5432/shop' },
  prometheus: { kind: 'prometheus', url: 'http://127.0.0.1:9090', query: 'up' },
  kubernetes: { kind: 'kubernetes', selector: 'app=shop' },
}

type Fake = InstanceType<typeof fakes.FakeMonitor>
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** createMonitor's monitor of `kind` and the fake inside it. */
function made(kind: string): { monitor: Monitor; inner: Fake } {
  const parsed = MonitorSpecSchema.safeParse(SPECS[kind as MonitorKind])
  expect(parsed.error, `SPECS' spec of kind ${kind}`).toBeUndefined()
  const spec: MonitorSpec = parsed.data!
  const before = fakes.FakeMonitor.made.length
  const monitor = createMonitor(spec, 't', { intervalMs: 1000 })
  const inner = fakes.FakeMonitor.made[before]
  expect(inner?.kind, `kind ${kind}'s monitor is not replaced by a fake in this file`).toBe(kind)
  return { monitor, inner: inner as Fake }
}

function recorder(): {
  onSample: SampleHandler
  onError: ErrorHandler
  samples: ResourceSample[]
  errors: Error[]
} {
  const samples: ResourceSample[] = []
  const errors: Error[] = []
  return { onSample: (s) => samples.push(s), onError: (e) => errors.push(e), samples, errors }
}

afterEach(() => {
  for (const f of fakes.FakeMonitor.made) clearInterval(f.loop)
  fakes.FakeMonitor.made.length = 0
})

describe('every kind createMonitor makes is stoppable (issue 29, item 5)', () => {
  it('the schema lists the kinds this file covers', () => {
    expect([...MONITOR_KINDS].sort()).toEqual(Object.keys(SPECS).sort())
  })

  for (const kind of MONITOR_KINDS) {
    describe(kind, () => {
      it('running, it samples: the fake is the kind’s monitor, and the wrapper lets it through', async () => {
        const { monitor, inner } = made(kind)
        const r = recorder()
        const started = monitor.start(r.onSample, r.onError)
        inner.answer()
        await started
        await pause(fakes.TICK_MS * 10)
        await monitor.stop()
        expect(r.samples.length).toBeGreaterThan(1)
        expect(r.samples[0]).toMatchObject({ source: kind })
        expect(inner.loop).toBeUndefined()
      })

      it('a first answer after stop: no sample, no loop, nothing called afterwards', async () => {
        const { monitor, inner } = made(kind)
        const r = recorder()
        const started = monitor.start(r.onSample, r.onError)
        await monitor.stop() // the run ends while the source has not answered yet
        const stopsAtEnd = inner.stops
        inner.answer()
        await started
        // The loop the late answer started is ended at once, before its first tick.
        expect(inner.loop).toBeUndefined()
        expect(inner.stops).toBe(stopsAtEnd + 1)
        await pause(fakes.TICK_MS * 10)
        expect(inner.ticks).toBe(0)
        expect(r.samples).toEqual([])
        inner.laterError(new MonitorError('unreachable', 'late'))
        expect(r.errors).toEqual([])
        expect([inner.starts, inner.stops]).toEqual([1, stopsAtEnd + 1])
      })

      it('a first answer that fails after stop is not reported, and start does not reject', async () => {
        const { monitor, inner } = made(kind)
        const r = recorder()
        const started = monitor.start(r.onSample, r.onError)
        await monitor.stop()
        inner.fail(new MonitorError('unreachable', 'refused, after the run'))
        await expect(started).resolves.toBeUndefined()
        expect(r.errors).toEqual([])
        expect(r.samples).toEqual([])
      })

      it('a start after stop calls nothing', async () => {
        const { monitor, inner } = made(kind)
        await monitor.stop()
        const started = monitor.start(recorder().onSample, () => {})
        await pause(fakes.TICK_MS)
        expect(inner.starts).toBe(0)
        inner.answer() // an unwrapped start would wait on it
        await started
        expect(inner.loop).toBeUndefined()
      })
    })
  }
})

describe('stoppable() itself', () => {
  it('a failure before stop is still the caller’s', async () => {
    const inner: Monitor = {
      start: () => Promise.reject(new MonitorError('auth', 'refused')),
      stop: async () => {},
    }
    await expect(
      stoppable(inner).start(
        () => {},
        () => {},
      ),
    ).rejects.toThrow('refused')
  })
})
