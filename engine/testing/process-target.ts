// A target in a process of its own, so a test can limit it (a cgroup: testing/cgroup.ts) and a
// process monitor can read it: each request burns `burnMs` of CPU before it is answered, and the
// process holds `holdBytes` of memory it has written to (resident, not just reserved). It is put in
// its cgroup before it allocates or listens, so everything it uses is counted there.
import { fork, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Cgroup } from './cgroup.ts'

const SCRIPT = `
const http = require('node:http')
process.on('disconnect', () => process.exit(0))
process.once('message', ({ burnMs, holdBytes }) => {
  const held = []
  for (let left = holdBytes; left > 0; left -= 1 << 20) held.push(Buffer.alloc(Math.min(left, 1 << 20), 1))
  globalThis.held = held
  const server = http.createServer((req, res) => {
    const end = process.hrtime.bigint() + BigInt(Math.round(burnMs * 1e6))
    while (process.hrtime.bigint() < end) {}
    res.end('ok')
  })
  server.keepAliveTimeout = 60000
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port, rss: process.memoryUsage().rss }))
})
`

export interface ProcessTarget {
  url: string
  pid: number
  /** Its resident memory once ready, bytes. */
  rss: number
  close(): Promise<void>
}

export async function startProcessTarget(
  o: { burnMs?: number; holdBytes?: number; cgroup?: Cgroup } = {},
): Promise<ProcessTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-target-'))
  const file = join(dir, 'target.cjs')
  writeFileSync(file, SCRIPT)
  const child: ChildProcess = fork(file, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  const pid = child.pid!
  o.cgroup?.add(pid)
  child.send({ burnMs: o.burnMs ?? 0, holdBytes: o.holdBytes ?? 0 })
  const [ready] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(() => {
      throw new Error('the target process exited before it listened (out of memory in its cgroup?)')
    }),
  ])) as [{ port: number; rss: number }]
  return {
    url: `http://127.0.0.1:${ready.port}`,
    pid,
    rss: ready.rss,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit')
        child.kill('SIGKILL')
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
