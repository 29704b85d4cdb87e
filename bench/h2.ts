// HTTP/2 and TLS beside h2load and wrk (issue 31, item 6). Runnable alone (`node bench/h2.ts`) or
// from `npm run bench` (bench/run.ts). nginx (`return 200`) on CPU 1, in cleartext HTTP/2 (h2c,
// prior knowledge) and over TLS (HTTP/1.1 and h2 by ALPN, a throwaway self-signed certificate);
// each client alone on CPU 0, the clients of a case alternated, ROUNDS rounds:
// - h2c with 1 and with 10 streams per connection, and h2 over TLS with 10: h2load (`-t1`), the
//   runner's own framing layer in a bare loop (bench/h2-loop.ts `own`: no driver, no ledger),
//   Node's http2 module in the same loop (`node`), and `cannonade run` (until it returns, every
//   request a ledger row; its runner process alone too, as bench/client.ts reads it);
// - HTTPS HTTP/1.1: wrk and `cannonade run` with the existing client over TLS.
// CPU is user + system per completed request: the whole process tree for h2load, wrk and
// `cannonade run` (bash's `times`), the load window alone for the bare loops (their module
// loading left out). Then a V8 CPU profile (`node --cpu-prof`) of the own loop on h2c with 10
// streams: where its microseconds go.
// Environment: BENCH_H2_SECONDS (5), BENCH_H2_ROUNDS (3), BENCH_H2_CONNECTIONS (50),
// BENCH_SKIP_PROFILE=1.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { selfSigned } from '../engine/testing/tls.ts'
import { ROOT, timed, watchRunnerCpu } from './client-cpu.ts'
import { selfTimes, type CpuProfile } from './client-profile.ts'
import { startNginx } from './nginx.ts'

const SECONDS = Number(process.env.BENCH_H2_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_H2_ROUNDS ?? 3)
const CONNECTIONS = Number(process.env.BENCH_H2_CONNECTIONS ?? 50)
const CLI = join(ROOT, 'bin', 'cannonade.mjs')
const LOOP = fileURLToPath(new URL('./h2-loop.ts', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'cannonade-bench-h2-'))
const has = (cmd: string, arg: string) => spawnSync(cmd, [arg]).error === undefined
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const load = () => loadavg()[0]!.toFixed(1)

interface Outcome {
  completed: number
  rps: number
  errors: number
  cpuUs: number
  runnerCpuUs?: number
}

type Client = 'h2load' | 'wrk' | 'own loop' | 'node:http2 loop' | 'cannonade'

interface Case {
  name: string
  url: string
  protocol: 'h2c' | 'h2' | 'http1'
  streams: number
  clients: Client[]
}

async function h2load(c: Case): Promise<Outcome> {
  const r = await timed(['h2load', '-t1', `-c${CONNECTIONS}`, `-m${c.streams}`, `-D${SECONDS}`, c.url])
  if (r.code !== 0) throw new Error(`h2load exited ${r.code}: ${r.stderr}`)
  const done = Number(/(\d+) done/.exec(r.stdout)?.[1] ?? 0)
  const failed = Number(/(\d+) failed/.exec(r.stdout)?.[1] ?? 0)
  return { completed: done, rps: done / SECONDS, errors: failed, cpuUs: r.cpuUs }
}

async function wrk(c: Case): Promise<Outcome> {
  const r = await timed(['wrk', '-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, c.url])
  if (r.code !== 0) throw new Error(`wrk exited ${r.code}: ${r.stderr}`)
  const completed = Number(/(\d+) requests in/.exec(r.stdout)?.[1] ?? 0)
  return {
    completed,
    rps: completed / SECONDS,
    errors: /Socket errors/.test(r.stdout) ? 1 : 0,
    cpuUs: r.cpuUs,
  }
}

async function loop(c: Case, mode: 'own' | 'node'): Promise<Outcome> {
  const r = await timed([
    process.execPath,
    LOOP,
    mode,
    c.url,
    String(CONNECTIONS),
    String(c.streams),
    String(SECONDS),
  ])
  if (r.code !== 0) throw new Error(`h2-loop ${mode} exited ${r.code}: ${r.stderr}`)
  const o = JSON.parse(r.stdout) as { completed: number; errors: number; cpuUs: number }
  return { completed: o.completed, rps: o.completed / SECONDS, errors: o.errors, cpuUs: o.cpuUs }
}

let runNo = 0
async function cannonade(c: Case): Promise<Outcome> {
  const n = ++runNo
  const config = join(dir, `run-${n}.yaml`)
  const h2 = c.protocol === 'http1' ? '' : `    protocol: ${c.protocol}\n    streams: ${c.streams}\n`
  const tls = c.url.startsWith('https') ? '    insecure: true\n' : ''
  writeFileSync(
    config,
    `version: 1\nname: h2 bench\ntargets:\n  - name: t\n    url: ${c.url}\n${h2}${tls}` +
      `load:\n  connections: ${CONNECTIONS}\n  duration: ${SECONDS}\ncooldownSeconds: 0\n`,
  )
  const out = join(dir, `run-${n}.json`)
  const args = ['run', config, '--db', join(dir, `run-${n}.db`), '--json', out, '--quiet', '--cpu', '0']
  const watch = watchRunnerCpu()
  const r = await timed([process.execPath, CLI, ...args]).finally(() => (watch.done = true))
  // Exit 1 is a run that ended with a failed threshold or errors: its JSON is there. Without it, the
  // command itself failed: say how.
  if ((r.code !== 0 && r.code !== 1) || !existsSync(out))
    throw new Error(`cannonade run exited ${r.code} without its results: ${r.stderr.slice(-2000)}`)
  const t = (
    JSON.parse(readFileSync(out, 'utf8')) as { targets: { seconds: number; requests: number; ok: number }[] }
  ).targets[0]!
  return {
    completed: t.requests,
    rps: t.requests / t.seconds,
    errors: t.requests - t.ok,
    cpuUs: r.cpuUs,
    runnerCpuUs: await watch.cpuUs,
  }
}

const RUN: Record<Client, (c: Case) => Promise<Outcome>> = {
  h2load,
  wrk,
  'own loop': (c) => loop(c, 'own'),
  'node:http2 loop': (c) => loop(c, 'node'),
  cannonade,
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const perReq = (o: Outcome) => o.cpuUs / Math.max(1, o.completed)

async function measure(c: Case): Promise<string[]> {
  const all = new Map<Client, Outcome[]>(c.clients.map((k) => [k, []]))
  console.log(
    `\n${c.name}: ${CONNECTIONS} connections × ${c.streams} streams · ${SECONDS} s each, alternated ${ROUNDS}× · load average ${load()}`,
  )
  for (let i = 0; i < ROUNDS; i++) {
    const parts: string[] = []
    for (const k of c.clients) {
      const o = await RUN[k](c)
      all.get(k)!.push(o)
      const runner = o.runnerCpuUs ? ` (runner alone ${(o.runnerCpuUs / o.completed).toFixed(2)})` : ''
      parts.push(
        `${k} ${fmt(o.rps)} req/s, ${perReq(o).toFixed(2)} µs${runner}${o.errors ? `, ${fmt(o.errors)} errors` : ''}`,
      )
    }
    console.log(`  round ${i + 1}: ${parts.join(' · ')} · load average ${load()}`)
  }
  const ref = c.clients[0]!
  const med = (k: Client) => ({
    rps: median(all.get(k)!.map((o) => o.rps)),
    cpu: median(all.get(k)!.map(perReq)),
  })
  const rows: string[] = []
  for (const k of c.clients) {
    const m = med(k)
    const runner =
      k === 'cannonade'
        ? median(all.get(k)!.map((o) => (o.runnerCpuUs ?? 0) / Math.max(1, o.completed)))
        : null
    const ratio = k === ref ? '' : ` · ${(m.cpu / med(ref).cpu).toFixed(2)}× ${ref}'s CPU per request`
    const alone =
      runner !== null ? ` (runner alone ${runner.toFixed(2)} µs, ${(runner / med(ref).cpu).toFixed(2)}×)` : ''
    const line = `  median ${k}: ${fmt(m.rps)} req/s · ${m.cpu.toFixed(2)} µs CPU per request${ratio}${alone}`
    console.log(line)
    rows.push(
      `| ${c.name} | ${k} | ${fmt(m.rps)} | ${m.cpu.toFixed(2)} | ${k === ref ? '1.00' : (m.cpu / med(ref).cpu).toFixed(2)} |`,
    )
  }
  return rows
}

async function profile(url: string): Promise<void> {
  const profDir = join(dir, 'prof')
  const r = await timed([
    process.execPath,
    '--cpu-prof',
    `--cpu-prof-dir=${profDir}`,
    LOOP,
    'own',
    url,
    String(CONNECTIONS),
    '10',
    String(SECONDS),
  ])
  const o = JSON.parse(r.stdout) as { completed: number }
  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'))!
  const { total, entries } = selfTimes(JSON.parse(readFileSync(join(profDir, file), 'utf8')) as CpuProfile)
  const idle = entries.find((e) => e.name === '(idle)')?.n ?? 0
  console.log(
    `\nprofile: node --cpu-prof of the own loop, h2c, ${CONNECTIONS} connections × 10 streams, ${SECONDS} s, ${fmt(o.completed / SECONDS)} req/s · ${fmt(total)} samples, ${((100 * idle) / total).toFixed(1)} % idle · load average ${load()}`,
  )
  console.log('| % of busy samples | µs/request | function | file:line |')
  console.log('|---|---|---|---|')
  const busy = Math.max(1, total - idle)
  for (const e of entries.filter((x) => x.name !== '(idle)' && x.name !== '(root)').slice(0, 18))
    console.log(
      `| ${((100 * e.n) / busy).toFixed(1)} | ${(e.us / Math.max(1, o.completed)).toFixed(2)} | ${e.name} | ${e.where || '-'} |`,
    )
}

if (!has('h2load', '--version') || !has('nginx', '-v')) {
  console.log('h2 bench: skipped, it needs h2load (apt-get install nghttp2-client) and nginx (nginx-light)')
  process.exit(0)
}
const cert = selfSigned()
writeFileSync(join(dir, 'key.pem'), cert.key)
writeFileSync(join(dir, 'cert.pem'), cert.cert)
const h2c = await startNginx(dir, 1, { h2c: true })
const tls = await startNginx(dir, 1, { tls: { key: join(dir, 'key.pem'), cert: join(dir, 'cert.pem') } })
const H2: Client[] = ['h2load', 'own loop', 'node:http2 loop', 'cannonade']
const rows: string[] = []
try {
  console.log(`HTTP/2 and TLS beside h2load and wrk: nginx on CPU 1 · each client alone on CPU 0`)
  rows.push(
    ...(await measure({ name: 'h2c, 1 stream', url: h2c.url, protocol: 'h2c', streams: 1, clients: H2 })),
  )
  rows.push(
    ...(await measure({ name: 'h2c, 10 streams', url: h2c.url, protocol: 'h2c', streams: 10, clients: H2 })),
  )
  rows.push(
    ...(await measure({
      name: 'h2 (TLS), 10 streams',
      url: tls.url,
      protocol: 'h2',
      streams: 10,
      clients: H2,
    })),
  )
  if (has('wrk', '--version'))
    rows.push(
      ...(await measure({
        name: 'HTTPS HTTP/1.1',
        url: tls.url,
        protocol: 'http1',
        streams: 1,
        clients: ['wrk', 'cannonade'],
      })),
    )
  console.log('\n| case | client | req/s | CPU µs per request | × the reference |\n|---|---|---|---|---|')
  for (const r of rows) console.log(r)
  console.log(
    '  (issue 31 item 6 targets: CPU per request ≤ 2× h2load with 1 and with 10 streams, moonshot 1.5×; TLS HTTP/1.1 ≤ 2× wrk)',
  )
  if (process.env.BENCH_SKIP_PROFILE !== '1') await profile(h2c.url)
} finally {
  h2c.stop()
  tls.stop()
}
