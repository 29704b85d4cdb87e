// The three critical causes of issue 29, reproduced against a checkout of Cannonade (this one by
// default; give another's folder to run its code): `node bench/hostile-critical.ts [REPO]`. Each
// runs the real command in a child process under a memory cap (ulimit -v 4 GB) and a deadline, so
// a reproduction that succeeds cannot take the machine down, and prints what happened:
//   1. a Kubernetes API answering 540 MB to the monitor's pod list, through `serve`'s monitor:test
//   2. an agent ledger whose block claims 10,000,000 requests over 57 bytes, through `import ledger`,
//      then `export json` of its run
//   3. a monitor's tokenFile that is a FIFO (and one that is /dev/zero), through `serve`'s monitor:test
// Not a test: the tests of each (named in the closing note) assert the fixed behaviour.
import { spawn, type ChildProcess } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer as createHttp } from 'node:http'
import { createServer as createHttps } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { execFileSync } from 'node:child_process'
import Database from 'better-sqlite3'

const REPO = resolve(process.argv[2] ?? new URL('..', import.meta.url).pathname)
const CLI = join(REPO, 'bin', 'cannonade.mjs')
const CAP_KB = 4_000_000
const work = mkdtempSync(join(tmpdir(), 'cannonade-critical-'))

/** The command under the memory cap; its output kept. */
function capped(args: string[], env: Record<string, string> = {}, cap = true) {
  const limit = cap ? `ulimit -v ${CAP_KB}; ` : ''
  const child = spawn('bash', ['-c', `${limit}exec "${process.execPath}" "$@"`, 'cap', CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr.on('data', (c: Buffer) => (err += c.toString()))
  return { child, out: () => out, err: () => err }
}

function ended(child: ChildProcess, ms: number): Promise<string> {
  return new Promise((r) => {
    if (child.exitCode !== null || child.signalCode !== null)
      return r(`exit ${child.exitCode ?? child.signalCode}`)
    const t = setTimeout(() => {
      child.kill('SIGKILL')
      r(`no end within ${ms / 1000} s (killed)`)
    }, ms)
    child.once('exit', (code, sig) => {
      clearTimeout(t)
      r(`exit ${code ?? sig}`)
    })
  })
}

async function serve(env: Record<string, string>) {
  const dir = mkdtempSync(join(work, 'serve-'))
  const s = capped(['serve', '--db', join(dir, 'c.db')], { CANNONADE_DATA_DIR: dir, ...env })
  const deadline = Date.now() + 30_000
  let url: URL | null = null
  while (!url && Date.now() < deadline) {
    const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(s.out())
    if (m?.[1]) url = new URL(m[1])
    else await new Promise((r) => setTimeout(r, 100))
  }
  if (!url) throw new Error(`serve did not start: ${s.err()}`)
  const call = async (channel: string, args: unknown[], ms: number) => {
    try {
      const res = await fetch(`${url.origin}/api/${channel}`, {
        method: 'POST',
        headers: { 'x-cannonade-token': url.searchParams.get('token')!, 'content-type': 'application/json' },
        body: JSON.stringify(args),
        signal: AbortSignal.timeout(ms),
      })
      return `${res.status} ${(await res.text()).slice(0, 300)}`
    } catch (e) {
      return `no answer (${(e as Error).name})`
    }
  }
  const alive = () =>
    s.child.exitCode === null && s.child.signalCode === null
      ? 'alive'
      : `dead (${s.child.exitCode ?? s.child.signalCode})`
  return { ...s, call, alive }
}

async function kubernetes(): Promise<void> {
  const { selfSigned } = (await import(join(REPO, 'engine/testing/tls.ts'))) as {
    selfSigned: () => { key: string; cert: string }
  }
  const { key, cert } = selfSigned()
  const MB = 540
  const api = createHttps({ key, cert }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    const chunk = Buffer.alloc(1 << 20, 'a')
    let sent = 0
    res.write('{"items":[],"x":"')
    const more = () => {
      while (sent < MB) {
        sent++
        if (!res.write(chunk)) return void res.once('drain', more)
      }
      res.end('"}')
    }
    more()
  })
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r))
  const kubeconfig = join(work, 'kubeconfig')
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\ncurrent-context: x\nclusters:\n- name: x\n  cluster:\n    server: https://127.0.0.1:${(api.address() as AddressInfo).port}\n    certificate-authority-data: ${Buffer.from(cert).toString('base64')}\ncontexts:\n- name: x\n  context: { cluster: x, user: u, namespace: shop }\nusers:\n- name: u\n  user: { token: t }\n`,
  )
  const s = await serve({ KUBECONFIG: kubeconfig })
  const test = await s.call('monitor:test', [{ kind: 'kubernetes', selector: 'app=x' }], 60_000)
  const list = await s.call('runs:list', [{}], 10_000)
  console.log(`1. Kubernetes API answering ${MB} MB: monitor:test → ${test}`)
  console.log(`   serve afterwards: ${s.alive()}; runs:list → ${list.slice(0, 40)}`)
  if (s.alive() !== 'alive')
    console.log(
      `   serve's last words: ${s
        .err()
        .trim()
        .split('\n')
        .filter((l) => !/^\s*\d+: 0x/.test(l))
        .slice(-4)
        .join(' | ')
        .slice(0, 500)}`,
    )
  s.child.kill('SIGKILL')
  api.close()
  api.closeAllConnections()
}

async function ledger(): Promise<void> {
  const target = createHttp((_req, res) => res.end('ok'))
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r))
  const dir = mkdtempSync(join(work, 'ledger-'))
  const db = join(dir, 'c.db')
  const config = join(dir, 'run.yaml')
  writeFileSync(
    config,
    `version: 1\nname: agents\ntargets:\n  - name: t\n    url: http://127.0.0.1:${(target.address() as AddressInfo).port}/\nload: { connections: 2, duration: 1 }\ncooldownSeconds: 0\n`,
  )
  // Not capped: the agents' runners start worker threads, whose isolates reserve more address space.
  const run = capped(
    ['run', config, '--db', db, '--agents', '2', '--raw', 'keep', '--json', join(work, 'r.json')],
    { CANNONADE_DATA_DIR: dir },
    false,
  )
  const runEnd = await ended(run.child, 120_000)
  console.log(`2. a run of two local agents, --raw keep: ${runEnd}`)
  target.close()
  if (runEnd !== 'exit 0') return void console.log(`   ${run.err().trim()}`)
  const runId = (JSON.parse(readFileSync(join(work, 'r.json'), 'utf8')) as { runId: number }).runId
  const agentDir = join(dir, 'agents', readdirSync(join(dir, 'agents'))[0]!, 'agent-0')
  const hostile = join(dir, 'hostile.db')
  copyFileSync(join(agentDir, 'ledger.db'), hostile)
  const h = new Database(hostile)
  h.exec('DELETE FROM samples')
  const runRow = h.prepare('SELECT id FROM runs').pluck().get() as number
  const data = Buffer.alloc(57) // seq 0: agent 0
  h.prepare(
    'INSERT INTO sample_blocks (run_id, target_index, round, count, data) VALUES (?, 0, 0, ?, ?)',
  ).run(runRow, 10_000_000, data)
  h.close()
  const imp = capped(['import', 'ledger', hostile, '--run', String(runId), '--db', db], {
    CANNONADE_DATA_DIR: dir,
  })
  const impEnd = await ended(imp.child, 120_000)
  console.log(`   import ledger of a block claiming 10,000,000 requests over 57 bytes: ${impEnd}`)
  console.log(`   said: ${(imp.out() + imp.err()).trim().split('\n').slice(-2).join(' | ')}`)
  const exp = capped(['export', 'json', String(runId), '--out', join(work, 'e.json'), '--db', db], {
    CANNONADE_DATA_DIR: dir,
  })
  const expEnd = await ended(exp.child, 120_000)
  console.log(`   export json of that run afterwards: ${expEnd}`)
  console.log(`   said: ${(exp.out() + exp.err()).trim().split('\n').slice(-2).join(' | ').slice(0, 400)}`)
  const list = capped(['runs', 'list', '--db', db], { CANNONADE_DATA_DIR: dir })
  console.log(`   runs list afterwards: ${await ended(list.child, 60_000)}`)
  // The agents' true ledgers still come in, and the run then exports whole.
  for (const a of readdirSync(join(agentDir, '..'))) {
    const imp2 = capped(
      ['import', 'ledger', join(agentDir, '..', a, 'ledger.db'), '--run', String(runId), '--db', db],
      {
        CANNONADE_DATA_DIR: dir,
      },
    )
    console.log(`   import ledger of ${a}'s true ledger: ${await ended(imp2.child, 120_000)}`)
  }
  const whole = capped(['export', 'json', String(runId), '--out', join(work, 'w.json'), '--db', db], {
    CANNONADE_DATA_DIR: dir,
  })
  console.log(`   export json once both are in: ${await ended(whole.child, 120_000)}`)
}

async function tokenFiles(): Promise<void> {
  const secrets = mkdtempSync(join(work, 'secrets-'))
  const fifo = join(secrets, 'token')
  execFileSync('mkfifo', [fifo])
  for (const [what, file, env] of [
    ['a FIFO', fifo, { CANNONADE_SECRETS_DIR: secrets }],
    ['/dev/zero', '/dev/zero', { CANNONADE_SECRETS_DIR: '/dev' }],
  ] as const) {
    const s = await serve(env)
    const spec = { kind: 'prometheus', url: 'http://127.0.0.1:9/', query: 'up', tokenFile: file }
    const test = await s.call('monitor:test', [spec], 20_000)
    const list = await s.call('runs:list', [{}], 5000)
    console.log(`3. tokenFile ${what}: monitor:test → ${test}`)
    console.log(`   serve afterwards: ${s.alive()}; runs:list within 5 s → ${list.slice(0, 40)}`)
    s.child.kill('SIGKILL')
  }
}

try {
  console.log(`issue 29's critical causes against ${REPO} (memory capped at ${CAP_KB / 1e6} GB per process)`)
  if (!process.env.ONLY || process.env.ONLY === '1') await kubernetes()
  if (!process.env.ONLY || process.env.ONLY === '2') await ledger()
  if (process.env.ONLY && process.env.ONLY !== '3') process.exit(0)
  await tokenFiles()
} finally {
  rmSync(work, { recursive: true, force: true })
}
