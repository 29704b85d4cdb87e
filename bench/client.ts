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
// Environment: BENCH_CLIENT_SECONDS (8), BENCH_CLIENT_ROUNDS (3), BENCH_CONNECTIONS (50),
// BENCH_CONFORMANCE_SECONDS (5), BENCH_SKIP_PROFILE=1, BENCH_SKIP_CONFORMANCE=1.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startNginx } from './nginx.ts'

const SECONDS = Number(process.env.BENCH_CLIENT_SECONDS ?? 8)
const ROUNDS = Number(process.env.BENCH_CLIENT_ROUNDS ?? 3)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const CONF_SECONDS = Number(process.env.BENCH_CONFORMANCE_SECONDS ?? 5)
const CONF_CONNECTIONS = 10
const ROOT = fileURLToPath(new URL('..', import.meta.url))
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

interface Timed {
  code: number
  stdout: string
  stderr: string
  cpuUs: number
}

const seconds = (m: string, s: string) => (Number(m) * 60 + Number(s)) * 1e6

/** `cmd` pinned to CPU 0 under bash, whose `times` then gives the CPU of all it ran (reaped children). */
function timed(cmd: string[], env: Record<string, string> = {}, timeoutS = 120): Promise<Timed> {
  const script = '"$@"; rc=$?; times >&2; exit $rc'
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script, 'bench', 'taskset', '-c', '0', ...cmd], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutS * 1000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      // The last line of `times`: the children's user and system time, e.g. "0m1.234s 0m0.567s".
      const lines = stderr.trimEnd().split('\n')
      const m = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(lines.at(-1) ?? '')
      if (!m) return reject(new Error(`${cmd[0]}: no CPU times (exit ${code}): ${stderr.slice(-500)}`))
      const cpuUs = seconds(m[1]!, m[2]!) + seconds(m[3]!, m[4]!)
      resolve({ code: code ?? 128, stdout, stderr: lines.slice(0, -2).join('\n'), cpuUs })
    })
  })
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

/** This checkout's runner process (engine/runner/worker.ts), if one is running. */
function runnerPid(): number | undefined {
  const worker = join(ROOT, 'engine', 'runner', 'worker.ts')
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(worker)) return Number(pid)
    } catch {
      /* gone */
    }
  }
  return undefined
}

/**
 * The runner's own user+system CPU (/proc/PID/stat, clock ticks of 10 ms), read every 100 ms
 * until it ends: what it used up to its last reading (a lower bound by at most 100 ms of its end).
 */
function watchRunnerCpu(): { done: boolean; cpuUs: Promise<number> } {
  const w = { done: false, cpuUs: Promise.resolve(0) }
  w.cpuUs = (async () => {
    let pid: number | undefined
    let last = 0
    for (;;) {
      pid ??= runnerPid()
      if (pid) {
        try {
          const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
          last = (Number(f[11]) + Number(f[12])) * 10_000
        } catch {
          return last // it ended
        }
      } else if (w.done) return last
      await new Promise((r) => setTimeout(r, 100))
    }
  })()
  return w
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

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]
  samples: number[]
  timeDeltas: number[]
}

/** Self time by function (file:line), from a .cpuprofile. */
function selfTimes(p: CpuProfile): {
  total: number
  entries: { name: string; where: string; us: number; n: number }[]
} {
  const byId = new Map(p.nodes.map((n) => [n.id, n.callFrame]))
  const acc = new Map<string, { name: string; where: string; us: number; n: number }>()
  let total = 0
  p.samples.forEach((id, i) => {
    const f = byId.get(id)!
    const file = f.url.replace(/^file:\/\//, '').replace(ROOT, '')
    const where = file ? `${file}:${f.lineNumber + 1}` : ''
    const key = `${f.functionName}@${where}`
    const e = acc.get(key) ?? { name: f.functionName || '(anonymous)', where, us: 0, n: 0 }
    const dt = p.timeDeltas[i + 1] ?? 0
    e.us += dt
    e.n++
    total++
    acc.set(key, e)
  })
  return { total, entries: [...acc.values()].sort((a, b) => b.n - a.n) }
}

/** The runner's pid, once it is running. */
async function findRunner(deadlineMs: number): Promise<number | undefined> {
  const until = Date.now() + deadlineMs
  for (let pid = runnerPid(); Date.now() < until; pid = runnerPid()) {
    if (pid) return pid
    await new Promise((r) => setTimeout(r, 100))
  }
  return undefined
}

/** Whether process `pid` holds at least `n` sockets within `ms`. */
async function socketsOpen(pid: number, n: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    try {
      const fds = readdirSync(`/proc/${pid}/fd`)
      let sockets = 0
      for (const fd of fds) {
        try {
          if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) sockets++
        } catch {
          /* closed meanwhile */
        }
      }
      if (sockets >= n) return true
    } catch {
      return false // it ended
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return false
}

/** One DevTools-protocol session on an inspector's WebSocket: send a method, await its result. */
function devtools(url: string): Promise<{ call(method: string): Promise<unknown>; close(): void }> {
  const ws = new WebSocket(url)
  let id = 0
  const waiting = new Map<number, (r: unknown) => void>()
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data)) as { id?: number; result?: unknown }
    if (m.id !== undefined) waiting.get(m.id)?.(m.result)
  }
  return new Promise((resolve, reject) => {
    ws.onerror = () => reject(new Error(`inspector ${url}: connection failed`))
    ws.onopen = () =>
      resolve({
        call: (method) =>
          new Promise((res) => {
            waiting.set(++id, res)
            ws.send(JSON.stringify({ id, method }))
          }),
        close: () => ws.close(),
      })
  })
}

/**
 * The runner's CPU profile over most of its window. The runner gets a clean environment (no
 * NODE_OPTIONS: engine/env.ts), so its inspector is opened from outside (SIGUSR1, as `node
 * --inspect` would, on 127.0.0.1:9229) and the V8 profiler driven over the DevTools protocol.
 */
async function profileRunner(): Promise<{ profile: CpuProfile; seconds: number } | string> {
  const pid = await findRunner(20_000)
  if (!pid) return 'the runner process was not found'
  // Past its start (modules, database): once its connections are open, until before its window ends.
  if (!(await socketsOpen(pid, CONNECTIONS, 30_000)))
    return `the runner did not open ${CONNECTIONS} connections`
  process.kill(pid, 'SIGUSR1')
  const worker = join(ROOT, 'engine', 'runner', 'worker.ts')
  let ws: string | undefined
  for (let i = 0; i < 30 && !ws; i++) {
    await new Promise((r) => setTimeout(r, 100))
    const list = await fetch('http://127.0.0.1:9229/json/list').then(
      (r) => r.json() as Promise<{ url: string; webSocketDebuggerUrl: string }[]>,
      () => [],
    )
    ws = list.find((t) => t.url.includes(worker))?.webSocketDebuggerUrl
  }
  if (!ws) return 'the runner did not open its inspector on 127.0.0.1:9229 (port taken?)'
  const s = await devtools(ws)
  await s.call('Profiler.enable')
  await s.call('Profiler.start')
  const ms = Math.max(1, SECONDS - 3) * 1000
  await new Promise((r) => setTimeout(r, ms))
  const { profile } = (await s.call('Profiler.stop')) as { profile: CpuProfile }
  s.close()
  return { profile, seconds: ms / 1000 }
}

async function profile(): Promise<void> {
  const nginx = await startNginx(dir, 1)
  let o: Outcome
  let p: Awaited<ReturnType<typeof profileRunner>>
  try {
    ;[o, p] = await Promise.all([cannonade(nginx.url, CONNECTIONS, SECONDS), profileRunner()])
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
