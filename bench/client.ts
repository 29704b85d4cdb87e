// The load client side by side with wrk and the autocannon CLI (issue 18, item 5). Runnable alone
// (`node bench/client.ts`) or from `npm run bench` (bench/run.ts). Three parts:
// - throughput and CPU: nginx (`return 200`) on CPU 1; wrk (when installed), the autocannon CLI and
//   `cannonade run` (until it returns, its ledger rows written) each pinned to CPU 0, alternated,
//   ROUNDS runs each. CPU is the whole process tree's user+sys (bash's `times` after the command:
//   children included, a forked runner and its threads too), per completed request. Medians, and
//   the ratios Cannonade/wrk and Cannonade/autocannon.
// - conformance: each client against nginx at its default `keepalive_requests` (1000) and a Node.js
//   server with `maxRequestsPerSocket = 100` (bench/node-target.ts): requests completed, errors by
//   kind, non-2xx, and the server's own count of 2xx answers.
// - profile: a V8 CPU profile (what `node --cpu-prof` writes) of Cannonade's runner process during
//   one run against nginx, through its inspector; the top self-time entries, in % of samples and µs
//   per request.
// The CPU measuring is in bench/client-cpu.ts, the profiler in bench/client-profile.ts.
// Environment: BENCH_CLIENT_SECONDS (8), BENCH_CLIENT_ROUNDS (3), BENCH_CONNECTIONS (50),
// BENCH_CONFORMANCE_SECONDS (5), BENCH_SKIP_PROFILE=1, BENCH_SKIP_CONFORMANCE=1.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ROOT, timed, watchRunnerCpu } from './client-cpu.ts'
import { profileRunner, selfTimes } from './client-profile.ts'
import { startNginx } from './nginx.ts'

const SECONDS = Number(process.env.BENCH_CLIENT_SECONDS ?? 8)
const ROUNDS = Number(process.env.BENCH_CLIENT_ROUNDS ?? 3)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const CONF_SECONDS = Number(process.env.BENCH_CONFORMANCE_SECONDS ?? 5)
const CONF_CONNECTIONS = 10
const CLI = join(ROOT, 'bin', 'cannonade.mjs')
const AUTOCANNON = join(ROOT, 'node_modules', 'autocannon', 'autocannon.js')
const dir = mkdtempSync(join(tmpdir(), 'cannonade-bench-client-'))
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const load = () => loadavg()[0]!.toFixed(1)
const HAS_WRK = spawnSync('wrk', ['--version']).error === undefined

type Client = 'wrk' | 'autocannon' | 'cannonade'

interface Outcome {
  /** Requests with an outcome: answered (any status) or failed. */
  completed: number
  rps: number
  /** Errors by kind, as the tool names them. */
  errors: Record<string, number>
  non2xx: number
  /** User + system CPU of the whole process tree, µs. */
  cpuUs: number
  /** Cannonade: its runner process alone (load loop and ledger writer thread), µs, read while it ran. */
  runnerCpuUs?: number
}

async function wrk(url: string, connections: number, secs: number): Promise<Outcome> {
  const r = await timed(['wrk', '-t1', `-c${connections}`, `-d${secs}s`, url])
  if (r.code !== 0) throw new Error(`wrk exited ${r.code}: ${r.stderr}`)
  const num = (re: RegExp) => Number(re.exec(r.stdout)?.[1] ?? 0)
  const completed = num(/(\d+) requests in/)
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(r.stdout)
  const errors: Record<string, number> = {}
  if (sock) ['connect', 'read', 'write', 'timeout'].forEach((k, i) => (errors[k] = Number(sock[i + 1])))
  return {
    completed,
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    errors,
    non2xx: num(/Non-2xx or 3xx responses: (\d+)/),
    cpuUs: r.cpuUs,
  }
}

interface AutocannonJson {
  requests: { total: number; average: number }
  duration: number
  errors: number
  timeouts: number
  resets?: number
  non2xx: number
}

async function autocannon(url: string, connections: number, secs: number): Promise<Outcome> {
  const r = await timed([
    process.execPath,
    AUTOCANNON,
    '-c',
    String(connections),
    '-d',
    String(secs),
    '-j',
    url,
  ])
  if (r.code !== 0) throw new Error(`autocannon exited ${r.code}: ${r.stderr}`)
  const j = JSON.parse(r.stdout) as AutocannonJson
  // autocannon's `errors` includes its timeouts; `resets` counts pipelined requests lost to a close.
  const errors: Record<string, number> = { errors: j.errors - j.timeouts, timeouts: j.timeouts }
  if (j.resets !== undefined) errors.resets = j.resets
  return {
    completed: j.requests.total,
    rps: j.requests.total / j.duration,
    errors,
    non2xx: j.non2xx,
    cpuUs: r.cpuUs,
  }
}

interface CannonadeJson {
  targets: {
    seconds: number
    requests: number
    answered: number
    ok: number
    errors: Record<string, number>
  }[]
}

let runNo = 0
async function cannonade(
  url: string,
  connections: number,
  secs: number,
  env: Record<string, string> = {},
): Promise<Outcome & { pid?: number }> {
  const n = ++runNo
  const config = join(dir, `run-${n}.yaml`)
  writeFileSync(
    config,
    `version: 1\nname: client bench\ntargets:\n  - name: t\n    url: ${url}\n` +
      `load:\n  connections: ${connections}\n  duration: ${secs}\ncooldownSeconds: 0\n`,
  )
  const out = join(dir, `run-${n}.json`)
  const args = ['run', config, '--db', join(dir, `run-${n}.db`), '--json', out, '--quiet', '--cpu', '0']
  const watch = watchRunnerCpu()
  const r = await timed([process.execPath, CLI, ...args], env).finally(() => (watch.done = true))
  if (r.code !== 0 && r.code !== 1) throw new Error(`cannonade run exited ${r.code}: ${r.stderr}`)
  const t = (JSON.parse(readFileSync(out, 'utf8')) as CannonadeJson).targets[0]!
  return {
    completed: t.requests,
    rps: t.requests / t.seconds,
    errors: t.errors,
    non2xx: t.answered - t.ok,
    cpuUs: r.cpuUs,
    runnerCpuUs: await watch.cpuUs,
  }
}

const CLIENTS: Client[] = HAS_WRK ? ['wrk', 'autocannon', 'cannonade'] : ['autocannon', 'cannonade']
const runClient = (c: Client, url: string, conns: number, secs: number) =>
  c === 'wrk'
    ? wrk(url, conns, secs)
    : c === 'autocannon'
      ? autocannon(url, conns, secs)
      : cannonade(url, conns, secs)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const perReq = (o: Outcome) => o.cpuUs / Math.max(1, o.completed)

async function throughput(): Promise<Map<Client, Outcome[]>> {
  const nginx = await startNginx(dir, 1)
  const all = new Map<Client, Outcome[]>(CLIENTS.map((c) => [c, []]))
  try {
    console.log(
      `client side by side: nginx on CPU 1 · each generator alone on CPU 0 · ${CONNECTIONS} connections · ${SECONDS} s each, alternated ${ROUNDS}× · load average ${load()} at start`,
    )
    if (!HAS_WRK) console.log('  wrk: not installed (apt-get install wrk), left out')
    for (let i = 0; i < ROUNDS; i++) {
      const parts: string[] = []
      for (const c of CLIENTS) {
        const o = await runClient(c, nginx.url, CONNECTIONS, SECONDS)
        all.get(c)!.push(o)
        const runner = o.runnerCpuUs ? ` (runner alone ${(o.runnerCpuUs / o.completed).toFixed(2)})` : ''
        parts.push(`${c} ${fmt(o.rps)} req/s, ${perReq(o).toFixed(2)} µs CPU/req${runner}`)
      }
      console.log(`  round ${i + 1}: ${parts.join(' · ')} · load average ${load()}`)
    }
  } finally {
    nginx.stop()
  }
  const med = (c: Client) => ({
    rps: median(all.get(c)!.map((o) => o.rps)),
    cpu: median(all.get(c)!.map(perReq)),
  })
  for (const c of CLIENTS)
    console.log(`  median ${c}: ${fmt(med(c).rps)} req/s · ${med(c).cpu.toFixed(2)} µs CPU per request`)
  const runnerAlone = median(
    all.get('cannonade')!.map((o) => (o.runnerCpuUs ?? 0) / Math.max(1, o.completed)),
  )
  console.log(
    `  median cannonade runner process alone: ${runnerAlone.toFixed(2)} µs CPU per request (the command's start, config and database work are the rest)`,
  )
  const cn = med('cannonade')
  for (const other of CLIENTS.filter((c) => c !== 'cannonade')) {
    const o = med(other)
    console.log(
      `  Cannonade/${other}: CPU per request ${(cn.cpu / o.cpu).toFixed(2)}× · throughput ${(cn.rps / o.rps).toFixed(2)}×`,
    )
  }
  console.log('  (issue 18 item 4 targets: CPU per request ≤ 2× wrk, throughput ≥ 1.3× the autocannon CLI)')
  return all
}

interface Target {
  name: string
  url: string
  /** The 2xx answers the server itself counted since the last call. */
  served(): Promise<number>
  stop(): void
}

async function nginxDefault(): Promise<Target> {
  const log = join(dir, 'status.log')
  writeFileSync(log, '')
  const nginx = await startNginx(dir, 1, { defaultKeepalive: true, statusLog: log })
  let seen = 0
  const count = () =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('2')).length
  seen = count() // its start-up probe
  return {
    name: 'nginx, default keepalive_requests (1000)',
    url: nginx.url,
    served: () => {
      const now = count()
      const d = now - seen
      seen = now
      return Promise.resolve(d)
    },
    stop: () => nginx.stop(),
  }
}

async function nodeServer(): Promise<Target> {
  const script = fileURLToPath(new URL('./node-target.ts', import.meta.url))
  const child = spawn('taskset', ['-c', '1', process.execPath, script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())))
    child.once('exit', (code) => reject(new Error(`bench/node-target.ts exited ${code}`)))
  })
  const base = `http://127.0.0.1:${port}`
  const served = async () => ((await (await fetch(`${base}/__counts`)).json()) as { ok: number }).ok
  return {
    name: 'Node.js http, maxRequestsPerSocket = 100',
    url: `${base}/`,
    served,
    stop: () => child.kill('SIGTERM'),
  }
}

const errText = (e: Record<string, number>) =>
  Object.entries(e)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${fmt(n)}`)
    .join(', ') || '0'

async function conformance(): Promise<void> {
  console.log(
    `\nconformance: ${CONF_CONNECTIONS} connections · ${CONF_SECONDS} s each · server on CPU 1, client on CPU 0 · load average ${load()}`,
  )
  console.log('| server | client | requests completed | errors | non-2xx | 2xx the server answered |')
  console.log('|---|---|---|---|---|---|')
  for (const start of [nginxDefault, nodeServer]) {
    const target = await start()
    try {
      for (const c of CLIENTS) {
        await target.served()
        const o = await runClient(c, target.url, CONF_CONNECTIONS, CONF_SECONDS)
        const own = await target.served()
        console.log(
          `| ${target.name} | ${c} | ${fmt(o.completed)} | ${errText(o.errors)} | ${fmt(o.non2xx)} | ${fmt(own)} |`,
        )
      }
    } finally {
      target.stop()
    }
  }
  console.log(
    `  nginx closes a connection with its 1000th response: a client met that only if it completed more than ${fmt(CONF_CONNECTIONS * 1000)}; Node answers 503 + Connection: close from the 101st request on a connection`,
  )
}

async function profile(): Promise<void> {
  const nginx = await startNginx(dir, 1)
  let o: Outcome
  let p: Awaited<ReturnType<typeof profileRunner>>
  try {
    ;[o, p] = await Promise.all([
      cannonade(nginx.url, CONNECTIONS, SECONDS),
      profileRunner(SECONDS, CONNECTIONS),
    ])
  } finally {
    nginx.stop()
  }
  if (typeof p === 'string') {
    console.log(`\nprofile: none (${p})`)
    return
  }
  const { total, entries } = selfTimes(p.profile)
  // Requests in the profiled part of the window, at the run's mean rate.
  const requests = o.rps * p.seconds
  console.log(
    `\nprofile: V8 CPU profile of the runner process over ${p.seconds} s of a ${SECONDS} s run against nginx, ${CONNECTIONS} connections, ${fmt(o.rps)} req/s (under the profiler) · ${fmt(total)} samples · load average ${load()}`,
  )
  const idle = entries.find((e) => e.name === '(idle)')
  if (idle) console.log(`  (idle) ${((100 * idle.n) / total).toFixed(1)} % of samples, left out below`)
  const busy = Math.max(1, total - (idle?.n ?? 0))
  console.log('| self % of samples | % of busy samples | µs/request | function | file:line |')
  console.log('|---|---|---|---|---|')
  for (const e of entries.filter((x) => x.name !== '(idle)').slice(0, 15))
    console.log(
      `| ${((100 * e.n) / total).toFixed(1)} | ${((100 * e.n) / busy).toFixed(1)} | ${(e.us / Math.max(1, requests)).toFixed(2)} | ${e.name} | ${e.where || '-'} |`,
    )
}

await throughput()
if (process.env.BENCH_SKIP_CONFORMANCE !== '1') await conformance()
if (process.env.BENCH_SKIP_PROFILE !== '1') await profile()
