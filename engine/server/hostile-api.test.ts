// No argument of any Api channel kills `cannonade serve`: the real command in its own process is
// sent every channel with hostile strings (`.`, `..`, `../x`, NUL, control characters, URL-ish,
// very long, unicode, empty, whitespace) as arguments and in every string field of a monitor spec
// and a run config. Each call gets an answer, the process is alive afterwards, and no run is left
// `running`. (A docker monitor's container `..` once made docker-modem emit an unhandled error.)
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, stopServe } from '../testing/process.ts'
import { channels } from '../api/names.ts'

/** Strings that once were, or classically are, a path, a URL or a terminal trick. */
export const HOSTILE_STRINGS = [
  '.',
  '..',
  '../x',
  '../../etc/passwd',
  '/',
  'a/b',
  '',
  ' ',
  '\t\n',
  'x\u0000y',
  '\u001b[31mred',
  '\r\nX-Injected: 1',
  'http://127.0.0.1:1/',
  '//127.0.0.1:1/x',
  'unix:///var/run/docker.sock',
  '%2e%2e',
  '?all=1',
  '#frag',
  'é\u202e\u{1F4A5}',
  'x'.repeat(70_000),
  '-rf',
  '${HOME}',
] as const
export const HOSTILE_MIN = 20

/** Objects whose string fields are each replaced by every hostile string in turn. */
const MONITOR_TEMPLATES: Record<string, unknown>[] = [
  { kind: 'docker', container: 'c' },
  { kind: 'docker', project: 'p', service: 's' },
  { kind: 'docker', stack: 'node-http' },
  { kind: 'docker', container: 'c', socketPath: '/nonexistent/docker.sock' },
  { kind: 'postgres', stack: 'node-http' },
  { kind: 'postgres', url: 'postgres://u@127.0.0.1:1/db' },
  { kind: 'prometheus', url: 'http://127.0.0.1:1/', query: 'up' },
  { kind: 'kubernetes', selector: 'app=x' },
  { kind: 'cloudfoundry', api: 'https://127.0.0.1:1', app: 'a', auth: { grant: 'token' } },
]

const runConfig = (monitor: unknown): Record<string, unknown> => ({
  version: 1,
  name: 'hostile',
  targets: [{ name: 't', url: 'http://127.0.0.1:1/', monitor: [monitor] }],
  load: { connections: 1, duration: 1 },
})

/** Every copy of `value` with one string leaf replaced by `s`. */
function variants(value: unknown, s: string): unknown[] {
  if (typeof value === 'string') return [s]
  if (Array.isArray(value)) {
    const arr: unknown[] = value
    return arr.flatMap((v, i) => variants(v, s).map((x): unknown[] => arr.map((y, j) => (j === i ? x : y))))
  }
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>
    return Object.keys(o).flatMap((k) => variants(o[k], s).map((x) => ({ ...o, [k]: x })))
  }
  return []
}

let dir = ''
let child: ChildProcess
let origin = ''
let token = ''
let stderr: () => string = () => ''

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cannonade-hostile-'))
  const served = await startServe(dir)
  child = served.child
  stderr = served.stderr
  const url = served.url
  origin = url.origin
  token = url.searchParams.get('token')!
})

afterAll(async () => {
  await stopServe(child)
  rmSync(dir, { recursive: true, force: true })
})

/** One call; the status, or 0 when no answer came within the bound. */
async function call(channel: string, args: unknown[]): Promise<{ status: number; body: unknown }> {
  try {
    const res = await fetch(`${origin}/api/${channel}`, {
      method: 'POST',
      headers: { 'x-cannonade-token': token, 'content-type': 'application/json' },
      body: JSON.stringify(args),
      signal: AbortSignal.timeout(20_000),
    })
    const text = await res.text()
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null }
  } catch (e) {
    if (child.exitCode !== null) throw new Error(`serve died on ${channel}: ${stderr()}`, { cause: e })
    return { status: 0, body: null }
  }
}

describe('serve under hostile Api arguments', () => {
  it('answers every channel and stays alive, with no run left running', { timeout: 600_000 }, async () => {
    expect(HOSTILE_STRINGS.length).toBeGreaterThanOrEqual(HOSTILE_MIN)
    const all = Object.values(channels).flatMap((d) => Object.values(d) as string[])
    let tried = 0
    const statuses = new Map<number, number>()
    const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1)
    for (const s of HOSTILE_STRINGS) {
      for (const ch of all) {
        if (ch === 'runs:prune') continue // deletes stored runs by design; covered by its own tests
        for (const args of [[s], [s, s], [{ id: s, name: s, path: s }]]) {
          count((await call(ch, args)).status)
          tried++
        }
      }
      for (const t of MONITOR_TEMPLATES) {
        for (const spec of variants(t, s)) {
          count((await call('monitor:test', [spec])).status)
          const r = await call('runs:start', [runConfig(spec)])
          count(r.status)
          tried += 2
          // A config that parses starts a short run against a closed port: let it end.
          if (r.status === 200) await waitIdle()
        }
      }
      expect(child.exitCode, `serve died after ${JSON.stringify(s.slice(0, 40))}: ${stderr()}`).toBeNull()
    }
    console.log(`hostile cases tried: ${tried}; answers by status: ${JSON.stringify([...statuses])}`)
    expect(tried).toBeGreaterThanOrEqual(HOSTILE_MIN * (all.length + MONITOR_TEMPLATES.length))
    expect(statuses.get(0) ?? 0).toBe(0)
    await waitIdle()
    const list = (await call('runs:list', [{}])).body as { items: { status: string }[] }
    expect(list.items.filter((r) => r.status === 'running')).toEqual([])
    expect(child.exitCode).toBeNull()
  })

  it("refuses a native stack's NODE_OPTIONS at runs:start, creating no run", async () => {
    const before = (await call('runs:list', [{}])).body as { total: number }
    const config = {
      ...runConfig({ kind: 'process', port: 1 }),
      targets: [
        {
          name: 't',
          url: 'http://127.0.0.1:1/',
          stack: {
            name: 'node-http',
            native: true,
            env: { NODE_OPTIONS: '--import=data:text/javascript,1' },
          },
        },
      ],
    }
    const r = await call('runs:start', [config])
    expect(r.status).toBe(400)
    expect(JSON.stringify(r.body)).toMatch(/NODE_OPTIONS/)
    const after = (await call('runs:list', [{}])).body as { total: number }
    expect(after.total).toBe(before.total)
  })
})

async function waitIdle(): Promise<void> {
  const end = Date.now() + 60_000
  while (Date.now() < end) {
    const active = (await call('runs:active', [])).body
    if (active === null || (Array.isArray(active) && active.length === 0)) return
    await new Promise((r) => setTimeout(r, 250))
  }
}
