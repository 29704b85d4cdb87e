// The Kubernetes launcher (kubernetes.ts) against a stand-in API server over HTTPS
// (engine/testing/k8s-fake.ts): the exact calls it makes with the kubeconfig's credentials (the
// Secret, the Job, the run's pods by label, each pod's log once, the deletes), the events it
// turns the pods into (lines, then the exit), and what it says when the API refuses or is not
// there. Then whole runs: the fake runs each pod as a real `cannonade agent` against a real
// PostgreSQL store, and the run ends as the agents did.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { parseRunConfig } from '../../config/load.ts'
import { openDb } from '../../db/db.ts'
import { FakeKubernetes, type FakeKubernetesOptions } from '../../testing/k8s-fake.ts'
import { pgAvailableForTests, startPg, type PgCluster } from '../../testing/pg.ts'
import { tempDbPath } from '../../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../../testing/target.ts'
import { startDistributedRun } from '../distributed.ts'
import { agentEnv } from '../env.ts'
import { KubeClient, loadKubeconfig } from '../../kubernetes/kubernetes-client.ts'
import { KubernetesLauncher } from './kubernetes.ts'
import type { LauncherEvent } from './launcher.ts'
import { PgCoordinatorStore } from '../coordination/pg-coordinator.ts'

const KEY = 'fedcba9876543210'
/** Another run's key, of a launcher that shows time passing for polls. */
const WITNESS = '0123456789abcdef'
const STORE = 'postgres://agents:pw-not-in-logs@db.example:5432/cannonade'
const JOBS = '/apis/batch/v1/namespaces/load/jobs'
const SECRETS = '/api/v1/namespaces/load/secrets'
const PODS = `/api/v1/namespaces/load/pods?labelSelector=cannonade%2Frun%3D${KEY}`

let fake: FakeKubernetes | null = null
afterEach(async () => {
  await fake?.close()
  fake = null
})

async function startFake(o: FakeKubernetesOptions): Promise<FakeKubernetes> {
  fake = new FakeKubernetes(o)
  await fake.start()
  return fake
}

const client = (kubeconfig: string) =>
  new KubeClient(loadKubeconfig({ KUBECONFIG: kubeconfig }), { timeoutMs: 5000 })

/** A launcher on the fake, its events, and a promise of `n` exits. */
function launch(f: FakeKubernetes, kubeconfig = f.kubeconfig(), graceMs = 5000, kube = client(kubeconfig)) {
  const launcher = new KubernetesLauncher({ storeUrl: STORE, client: kube, pollMs: 20, graceMs })
  const events: LauncherEvent[] = []
  let onExit = () => {}
  launcher.follow((e) => {
    events.push(e)
    if (e.type === 'exit') onExit()
  })
  const exits = (n: number) =>
    new Promise<void>((resolve) => {
      onExit = () => events.filter((e) => e.type === 'exit').length >= n && resolve()
      onExit()
    })
  return { launcher, events, exits }
}

const calls = (f: FakeKubernetes) => f.requests.map((r) => `${r.method} ${r.path}`)

describe('the Kubernetes launcher against a stand-in API', () => {
  it('creates the Secret and the Job, follows each pod to its exit, and deletes both', async () => {
    const f = await startFake({
      script: (i) =>
        i === 0
          ? { lines: ['agent 0/2: joined', 'agent 0/2: done'], exitCode: 0 }
          : { lines: ['agent 1/2: joined', 'agent 1/2: out of memory'], exitCode: 137, reason: 'OOMKilled' },
    })
    const { launcher, events, exits } = launch(f)
    await launcher.start(agentEnv({ runKey: KEY, count: 2 }), 2)
    await exits(2)
    await launcher.stop()
    const after = f.requests.length

    const all = calls(f)
    expect(all.slice(0, 2)).toEqual([`POST ${SECRETS}`, `POST ${JOBS}`])
    expect(all.slice(-2)).toEqual([
      `DELETE ${JOBS}/cannonade-agents-${KEY}?propagationPolicy=Background`,
      `DELETE ${SECRETS}/cannonade-agents-${KEY}-store`,
    ])
    const middle = all.slice(2, -2)
    expect(middle.filter((c) => !c.includes('/log?')).every((c) => c === `GET ${PODS}`)).toBe(true)
    expect(middle.filter((c) => c.includes('/log?')).sort()).toEqual(
      [0, 1].map(
        (i) =>
          `GET /api/v1/namespaces/load/pods/cannonade-agents-${KEY}-${i}-x${i}z/log?container=agent&follow=true`,
      ),
    )
    // What was created: the URL in the Secret, the Job refers to it and holds no password.
    const [secret, job] = f.requests.map((r) => r.body) as [
      { stringData: { url: string } },
      { spec: { completions: number; parallelism: number; completionMode: string } },
    ]
    expect(secret.stringData.url).toBe(STORE)
    expect(job.spec).toMatchObject({ completions: 2, parallelism: 2, completionMode: 'Indexed' })
    expect(JSON.stringify(job)).not.toContain('pw-not-in-logs')

    // Each agent's lines in order, then its exit with the container's code.
    const of = (i: number) => events.filter((e) => e.index === i)
    expect(of(0)).toEqual([
      { type: 'log', index: 0, line: 'agent 0/2: joined' },
      { type: 'log', index: 0, line: 'agent 0/2: done' },
      { type: 'exit', index: 0, code: 0, signal: null },
    ])
    expect(of(1)).toEqual([
      { type: 'log', index: 1, line: 'agent 1/2: joined' },
      { type: 'log', index: 1, line: 'agent 1/2: out of memory' },
      { type: 'log', index: 1, line: `pod cannonade-agents-${KEY}-1-x1z: OOMKilled` },
      { type: 'exit', index: 1, code: 137, signal: null },
    ])
    expect(events.filter((e) => e.index === null).map((e) => e.type === 'log' && e.line)).toEqual([
      `kubernetes: job cannonade-agents-${KEY} created in namespace load`,
    ])
    // Stopped means stopped: while a second launcher on the same API, polling as often, lists its
    // pods three times, the first makes no call.
    const witness = launch(f).launcher
    await witness.start(agentEnv({ runKey: WITNESS, count: 1 }), 1)
    const witnessPods = PODS.replace(KEY, WITNESS)
    while (calls(f).filter((c) => c === `GET ${witnessPods}`).length < 3) await f.nextRequest()
    await witness.stop({ kill: true })
    expect(f.requests.slice(after).filter((r) => r.path.includes(KEY))).toEqual([])
  })

  it('says once why a pod cannot start; a kill cuts the wait of a stop short and deletes at once', async () => {
    const f = await startFake({
      script: (i) =>
        i === 0
          ? { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "nope:1"' } }
          : { exitCode: 0 },
    })
    // A grace longer than the test's timeout: only the kill can end the stop in time.
    const { launcher, events, exits } = launch(f, f.kubeconfig(), 600_000)
    await launcher.start(agentEnv({ runKey: KEY, count: 2 }), 2)
    await exits(1)
    while (calls(f).filter((c) => c === `GET ${PODS}`).length < 5) await new Promise((r) => setTimeout(r, 20))
    const stopping = launcher.stop() // index 0 never ends: this would wait for the grace
    await launcher.stop({ kill: true })
    await stopping
    expect(calls(f).filter((c) => c.startsWith('DELETE')).length).toBe(2) // once, not twice
    expect(events.filter((e) => e.index === 0)).toEqual([
      {
        type: 'log',
        index: 0,
        line: `pod cannonade-agents-${KEY}-0-x0z: ImagePullBackOff: Back-off pulling image "nope:1"`,
      },
    ])
    expect(calls(f).slice(-2)).toEqual([
      `DELETE ${JOBS}/cannonade-agents-${KEY}?propagationPolicy=Background&gracePeriodSeconds=0`,
      `DELETE ${SECRETS}/cannonade-agents-${KEY}-store`,
    ])
  })

  it('a 403 names the call and the reason, and only what was created is deleted', async () => {
    const f = await startFake({ forbid: /^POST \/apis\/batch\/v1\/namespaces\/load\/jobs$/ })
    const { launcher } = launch(f)
    const err = await launcher.start(agentEnv({ runKey: KEY, count: 2 }), 2).then(
      () => null,
      (e: unknown) => e as Error,
    )
    expect(err?.message).toBe(`POST ${JOBS}: 403 Forbidden: ${JOBS} is forbidden: User "dev" cannot post it`)
    await launcher.stop({ kill: true })
    expect(calls(f)).toEqual([
      `POST ${SECRETS}`,
      `POST ${JOBS}`,
      `DELETE ${SECRETS}/cannonade-agents-${KEY}-store`,
    ])
  })

  it('an unreachable API or an untrusted certificate fails the start, naming the server, never the token', async () => {
    const f = await startFake({})
    const closed = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as { port: number }).port
        s.close(() => resolve(port))
      })
    })
    const down = launch(f, f.kubeconfig({ server: `https://127.0.0.1:${closed}` })).launcher
    const refused = await down.start(agentEnv({ runKey: KEY, count: 1 }), 1).catch((e: Error) => e)
    expect(String(refused)).toMatch(
      new RegExp(
        `POST ${SECRETS}: cannot reach the Kubernetes API at https://127\\.0\\.0\\.1:${closed} \\(ECONNREFUSED; kubeconfig .*, context fake\\)`,
      ),
    )
    const untrusted = launch(f, f.kubeconfig({ trust: false })).launcher
    const tls = await untrusted.start(agentEnv({ runKey: KEY, count: 1 }), 1).catch((e: Error) => e)
    expect(String(tls)).toMatch(/cannot reach the Kubernetes API .*(SELF_SIGNED|self-signed)/i)
    for (const e of [refused, tls]) expect(String(e)).not.toContain(f.token)
    expect(f.requests).toEqual([]) // neither got as far as a request
    await Promise.all([down.stop({ kill: true }), untrusted.stop({ kill: true })])
  })

  it('reads kubeconfig files as kubectl merges them: context, namespace, a CA path, an exec plugin whose token is read again when it expires', async () => {
    const f = await startFake({ script: () => ({ exitCode: 0 }) })
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-kubeconfig-'))
    writeFileSync(join(dir, 'ca.pem'), f.caPem)
    // The plugin answers an ExecCredential, as cloud providers' plugins do.
    writeFileSync(
      join(dir, 'plugin.mjs'),
      `import { readFileSync } from 'node:fs'\nconsole.log(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: readFileSync(process.env.TOKEN_FILE, 'utf8') } }))`,
    )
    writeFileSync(
      join(dir, 'first'),
      `current-context: team\ncontexts:\n- name: team\n  context: { cluster: fake, user: plugin, namespace: team-a }\n`,
    )
    writeFileSync(
      join(dir, 'second'),
      `clusters:
- name: fake
  cluster: { server: "https://127.0.0.1:${f.port}", certificate-authority: ca.pem }
users:
- name: plugin
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ${process.execPath}
      args: [plugin.mjs]
      env: [{ name: TOKEN_FILE, value: ${join(dir, 'token')} }]
`,
    )
    writeFileSync(join(dir, 'token'), f.token)
    const creds = loadKubeconfig({
      KUBECONFIG: [join(dir, 'missing'), join(dir, 'first'), join(dir, 'second')].join(delimiter),
    })
    expect(creds).toMatchObject({ server: `https://127.0.0.1:${f.port}`, namespace: 'team-a' })
    // The plugin runs when a call needs its token, as a child process the event loop does not wait on.
    expect(creds.exec).toMatchObject({ command: process.execPath, args: ['plugin.mjs'], dir })
    expect(creds.token).toBeUndefined()
    const env = { KUBECONFIG: [join(dir, 'first'), join(dir, 'second')].join(delimiter) }
    const { launcher, events } = launch(f, '', 5000, KubeClient.fromKubeconfig(env))
    await launcher.start(agentEnv({ runKey: KEY, count: 1 }), 1)
    // The token expires and the plugin hands out a new one: the deletes still happen.
    f.token = 'rotated-' + f.token
    writeFileSync(join(dir, 'token'), f.token)
    await launcher.stop({ kill: true })
    expect(f.unauthorized).toBeGreaterThan(0)
    expect(f.secretNames).toEqual([])
    expect(events.filter((e) => e.type === 'log' && /could not delete/.test(e.line))).toEqual([])
    expect(calls(f)[0]).toBe('POST /api/v1/namespaces/team-a/secrets')
    expect(calls(f).at(-1)).toBe(`DELETE /api/v1/namespaces/team-a/secrets/cannonade-agents-${KEY}-store`)
  })

  it('a kubeconfig it cannot use is named', () => {
    expect(() => loadKubeconfig({ KUBECONFIG: '/nonexistent/kubeconfig' })).toThrow(
      /^kubeconfig \/nonexistent\/kubeconfig: does not exist \(set KUBECONFIG\)$/,
    )
  })
})

const pgOk = pgAvailableForTests()
describe.skipIf(!pgOk)('runs whose agents are pods of the stand-in (real agents, real PostgreSQL)', () => {
  let pg: PgCluster | null = null
  let target: CountingTarget | null = null
  beforeAll(async () => {
    pg = await startPg({ durable: false })
  }, 60_000)
  afterAll(() => pg?.stop())
  afterEach(async () => {
    await target?.close()
    target = null
  })

  async function distributed(f: FakeKubernetes) {
    target = await startTarget()
    const config = parseRunConfig({
      version: 1,
      name: 'agents on kubernetes',
      targets: [{ name: 't', url: `${target.url}/x` }],
      load: { connections: 4, duration: 2 },
      cooldownSeconds: 0,
      agents: { count: 2, on: 'kubernetes', barrierTimeoutSeconds: 30 },
    })
    const dbPath = tempDbPath()
    const handle = await startDistributedRun(
      openDb(dbPath),
      config,
      {},
      {
        agentDataDir: `${dbPath}-agents`,
        store: new PgCoordinatorStore(pg!.url),
        launcher: () =>
          new KubernetesLauncher({
            storeUrl: pg!.url,
            client: client(f.kubeconfig()),
            pollMs: 100,
            graceMs: 10_000,
          }),
      },
    )
    return handle.done
  }

  it('two agents run the load as one run, which ends done; the Job and the Secret are deleted', async () => {
    const f = await startFake({})
    const summary = await distributed(f)
    expect({ status: summary.status, error: summary.error }).toEqual({ status: 'done', error: null })
    const d = summary.distribution!
    expect(d).toMatchObject({ on: 'kubernetes', agents: 2, store: 'postgres' })
    // Each agent is named by its pod (CANNONADE_AGENT_HOST from the pod's name).
    expect(d.perAgent.map((a) => a.state)).toEqual(['done', 'done'])
    d.perAgent.forEach((a, i) => expect(a.host).toMatch(new RegExp(`^cannonade-agents-[0-9a-f]{16}-${i}-`)))
    const [merged] = summary.results
    expect(merged!.requests).toBe(d.perAgent.reduce((n, a) => n + a.requests, 0))
    expect(merged!.requests).toBeGreaterThan(0)
    // What the target received: every answered request, and at most the ones in flight at the end.
    expect(target!.requests).toBeGreaterThanOrEqual(merged!.requests)
    expect(target!.requests).toBeLessThanOrEqual(merged!.requests + (merged!.errors.inflight ?? 0))
    const [secret, job] = f.requests.map(
      (r) => (r.body as { metadata: { name: string } } | undefined)?.metadata.name,
    )
    expect(calls(f).filter((c) => c.startsWith('DELETE'))).toEqual([
      `DELETE ${JOBS}/${job}?propagationPolicy=Background`,
      `DELETE ${SECRETS}/${secret}`,
    ])
  }, 60_000)

  it('a pod whose agent ends before joining fails the run at once with its last words', async () => {
    const f = await startFake({
      script: (i) =>
        i === 1
          ? { lines: ['exec /usr/local/bin/cannonade: no such file or directory'], exitCode: 127 }
          : 'kubelet',
    })
    const summary = await distributed(f)
    expect(summary.status).toBe('failed')
    expect(summary.error).toMatch(/agent 1.*exit code 127.*no such file or directory/)
    expect(calls(f).filter((c) => c.startsWith('DELETE')).length).toBe(2)
  }, 60_000)
})
