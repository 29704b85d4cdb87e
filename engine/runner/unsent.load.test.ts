// "sent" counts requests written to a socket (issue 28, Must 6): a connection still opening when
// the window closes holds no request, so it is neither sent nor in flight, and no row claims a
// correlation id the server could have seen. The server is a process listening with a backlog of 1
// and stopped (SIGSTOP): the kernel completes two connections into its accept queue and leaves the
// others opening. After the run the server goes on (SIGCONT), accepts what was queued and reads
// every request written to it: the truth the run's counts and rows are held to.
import { spawn } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { runConfig } from '../testing/run-config.ts'
import { waitUntil } from '../testing/process.ts'

const SERVER = `
const net = require('node:net')
const ids = []
const server = net.createServer((s) => {
  let buf = ''
  s.on('data', (d) => {
    buf += d.toString('latin1')
    for (const m of buf.matchAll(/x-correlation-id: (\\S+)\\r\\n/g)) ids.push(m[1])
    buf = buf.slice(buf.lastIndexOf('\\r\\n\\r\\n') + 4)
  })
  s.on('error', () => {})
})
server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => console.log('port ' + server.address().port))
process.stdin.on('data', () => console.log('ids ' + JSON.stringify(ids)))
`

let child: ReturnType<typeof spawn> | null = null
afterEach(() => {
  child?.kill('SIGKILL')
  child = null
})

describe('sent: written to a socket (Must 6)', () => {
  it('requests of connections still opening when the window closed are not sent, and have no row', async () => {
    child = spawn(process.execPath, ['-e', SERVER], { stdio: ['pipe', 'pipe', 'inherit'] })
    let out = ''
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
    const port = await waitUntil(() => /port (\d+)/.exec(out)?.[1], 10_000, 'the server to listen')
    child.kill('SIGSTOP')
    const { summary, db } = await runConfig({
      version: 1,
      name: 'backlog',
      targets: [{ name: 't', url: `http://127.0.0.1:${port}/x` }],
      load: { connections: 4, duration: 1, timeoutMs: 30_000 },
      cooldownSeconds: 0,
    })
    child.kill('SIGCONT')
    await new Promise((r) => setTimeout(r, 500))
    child.stdin!.write('\n')
    const received = await waitUntil(
      () => /ids (\[.*\])/.exec(out)?.[1],
      10_000,
      'the ids the server read',
    ).then((t) => JSON.parse(t) as string[])
    const r = summary.results[0]!
    const rows = db
      .prepare('SELECT seq, error FROM samples WHERE run_id = ? ORDER BY seq')
      .all(summary.runId) as { seq: number; error: number }[]
    const ids = rows.map((row) => `${summary.correlationPrefix}-${String(row.seq).padStart(10, '0')}`)
    // Two connections reached the accept queue, each with its one request, never answered: in
    // flight at the end. The two still opening wrote nothing.
    expect(r.requests).toBe(0)
    expect(r.errors).toEqual({ inflight: received.length })
    expect(received.length).toBe(2)
    expect(ids.sort()).toEqual([...received].sort())
  })
})
