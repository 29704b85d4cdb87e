// A kubeconfig's exec credential plugin (issue 29, item 10): it runs as a child process the event
// loop does not wait on (a plugin that takes seconds leaves the process answering), once for every
// caller of the process until its credential expires, again after a refusal but not on every one,
// and a plugin that hangs, floods its output, fails or prints no credential ends the call with its
// reason. Against the API stand-in over HTTPS.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHostile, type HostileServer } from '../testing/hostile-http.ts'
import { KubeClient, loadKubeconfig } from './kubernetes-client.ts'

const dir = mkdtempSync(join(tmpdir(), 'cannonade-kube-exec-'))
let api: HostileServer
let accept = 'good'
beforeAll(async () => {
  api = await startHostile(
    (r) =>
      r.headers.authorization === `Bearer ${accept}`
        ? { body: { items: [] } }
        : { status: 401, body: { message: 'Unauthorized' } },
    { https: true },
  )
})
afterAll(async () => {
  await api.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A client whose kubeconfig's user is the exec plugin `script` (a Node program), counted in `runs`. */
function client(name: string, script: string): { client: () => KubeClient; runs: () => number } {
  const runs = join(dir, `${name}.runs`)
  writeFileSync(runs, '')
  writeFileSync(
    join(dir, `${name}.mjs`),
    `import { appendFileSync } from 'node:fs'\nappendFileSync(${JSON.stringify(runs)}, 'x')\n${script}`,
  )
  const file = join(dir, `${name}.kubeconfig`)
  writeFileSync(
    file,
    `apiVersion: v1
kind: Config
current-context: h
clusters:
- name: h
  cluster: { server: "${api.url}", certificate-authority-data: ${Buffer.from(api.cert).toString('base64')} }
contexts:
- name: h
  context: { cluster: h, user: u, namespace: shop }
users:
- name: u
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ${process.execPath}
      args: [${name}.mjs]
`,
  )
  const env = { KUBECONFIG: file }
  return {
    client: () => KubeClient.fromKubeconfig(env, { timeoutMs: 5000 }),
    runs: () => readFileSync(runs, 'utf8').length,
  }
}

const credential = (token: string, expires?: string) =>
  `console.log(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: ${JSON.stringify(token)}${expires ? `, expirationTimestamp: ${expires}` : ''} } }))`

describe('an exec credential plugin', () => {
  it('runs while the event loop goes on: a plugin taking 1.5 s leaves timers firing', async () => {
    accept = 'good'
    const c = client('slow', `await new Promise((r) => setTimeout(r, 1500))\n${credential('good')}`)
    let ticks = 0
    const timer = setInterval(() => ticks++, 10)
    try {
      const pending = c.client().request('GET', '/api/v1/namespaces/shop/pods')
      // Synchronously run, the plugin would hold the loop: no timer could fire before it answered.
      await new Promise((r) => setTimeout(r, 500))
      expect(ticks).toBeGreaterThan(5)
      expect(await pending).toEqual({ items: [] })
    } finally {
      clearInterval(timer)
    }
  })

  it('runs once for every client of the process until its credential expires', async () => {
    accept = 'good'
    const c = client('once', credential('good', 'new Date(Date.now() + 3600e3).toISOString()'))
    const [a, b] = [c.client(), c.client()]
    for (let i = 0; i < 5; i++) {
      await a.request('GET', '/api/v1/namespaces/shop/pods')
      await b.request('GET', '/api/v1/namespaces/shop/pods')
    }
    expect(c.runs()).toBe(1)
  })

  it('an expired credential is fetched again', async () => {
    accept = 'good'
    const c = client('expired', credential('good', 'new Date(Date.now() - 1000).toISOString()'))
    const k = c.client()
    for (let i = 0; i < 3; i++) await k.request('GET', '/api/v1/namespaces/shop/pods')
    expect(c.runs()).toBe(3)
  })

  it('a refusal fetches it again, but a server refusing every token is not sent a new one each call', async () => {
    accept = 'nothing-matches'
    const c = client('refused', credential('bad'))
    const k = c.client()
    for (let i = 0; i < 5; i++)
      await expect(k.request('GET', '/api/v1/namespaces/shop/pods')).rejects.toMatchObject({ status: 401 })
    expect(c.runs()).toBe(2)
  })

  const failures: [string, string, RegExp][] = [
    [
      'exits 1',
      `process.stderr.write('no cloud login\\n'); process.exit(1)`,
      /failed \(exit 1: no cloud login\)/,
    ],
    ['prints no JSON', `console.log('hello')`, /is not an ExecCredential/],
    ['floods its output (5 MB)', `process.stdout.write('x'.repeat(5 << 20))`, /wrote more than 1 MB/],
    ['prints JSON without a status', `console.log('{}')`, /401|Unauthorized/],
  ]
  for (const [what, script, words] of failures)
    it(`that ${what}: the call ends with its reason`, async () => {
      accept = 'good'
      const c = client(what.replace(/\W+/g, '-'), script)
      const error = await c
        .client()
        .request('GET', '/api/v1/namespaces/shop/pods')
        .catch((e: Error) => e)
      expect(String(error)).toMatch(words)
    })

  it('a kubeconfig naming a command that does not exist: the call names it', async () => {
    const file = join(dir, 'missing.kubeconfig')
    writeFileSync(
      file,
      `current-context: h\nclusters: [{ name: h, cluster: { server: "${api.url}" } }]\ncontexts: [{ name: h, context: { cluster: h, user: u } }]\nusers: [{ name: u, user: { exec: { command: /nonexistent/plugin } } }]\n`,
    )
    const error = await new KubeClient(loadKubeconfig({ KUBECONFIG: file }))
      .request('GET', '/x')
      .catch((e: Error) => e)
    expect(String(error)).toMatch(/exec plugin \/nonexistent\/plugin failed \(exit 127/)
  })
})
