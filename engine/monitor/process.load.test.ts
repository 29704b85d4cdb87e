import { fork } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { ProcessMonitor } from './process.ts'
import { MonitorError } from './types.ts'
import { collector, expectBusyThenIdle, meanCpu } from '../testing/monitor.ts'
import type { ResourceSample } from './types.ts'

// What every child below runs: it burns one core while told 'busy' (in 50 ms slices, so it still
// hears 'idle'), and reports its own CPU time when asked: the ground truth the monitor is checked
// against.
const BURN = `
let busy = false
process.on('message', (m) => {
  if (m === 'usage') process.send({ usage: process.cpuUsage() })
  else busy = m === 'busy'
})
const spin = () => {
  if (!busy) return setTimeout(spin, 20)
  const end = Date.now() + 50
  while (Date.now() < end) {}
  setImmediate(spin)
}
spin()
`

const BURNER = `
${BURN}
process.send('ready')
`

// A node cluster: the primary owns the listening socket (round-robin scheduling), its one
// worker serves and burns CPU on demand. The primary relays the port and the 'busy' orders.
const CLUSTER = `
const cluster = require('node:cluster')
const http = require('node:http')
cluster.schedulingPolicy = cluster.SCHED_RR
if (cluster.isPrimary) {
  const worker = cluster.fork()
  worker.on('message', (m) => process.send(m))
  process.on('message', (m) => worker.send(m))
} else {
  ${BURN}
  const server = http.createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', () => {
    process.send({ port: server.address().port })
  })
}
`

// A parent with two children, like a cluster's primary and workers: on 'busy' the first child
// burns one core, the second stays idle. Each child reports its pid and, when asked, its CPU time.
const FAMILY = `
const { fork } = require('node:child_process')
if (process.argv[2] === 'child') {
  // Gone with the parent: the test kills only the processes it started itself.
  process.on('disconnect', () => process.exit(0))
  ${BURN}
  process.send({ pid: process.pid })
} else {
  const kids = [fork(__filename, ['child']), fork(__filename, ['child'])]
  const pids = []
  kids.forEach((k, i) =>
    k.on('message', (m) => {
      if (m.pid) {
        pids[i] = m.pid
        if (pids.filter(Boolean).length === 2) process.send({ pids })
      } else process.send(m)
    }),
  )
  process.on('message', (m) => kids[0].send(m))
}
`

const children: ChildProcess[] = []
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL')
})
// cluster.fork() re-runs the primary's script file, so the scripts are files, not `-e` strings.
const dir = mkdtempSync(join(tmpdir(), 'cannonade-process-test-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function spawnScript(source: string): ChildProcess {
  const file = join(dir, `script-${children.length}-${Date.now()}.cjs`)
  writeFileSync(file, source)
  const child = fork(file, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  children.push(child)
  return child
}

/** The child's first message; fails at once if the child dies first. */
async function firstMessage<T>(child: ChildProcess): Promise<T> {
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`test child exited early with code ${String(code)}`)
  })
  const [message] = (await Promise.race([once(child, 'message'), exited])) as [T]
  return message
}

/** The child's (or cluster worker's) own CPU time so far, in ms. */
async function ownCpuMs(child: ChildProcess): Promise<number> {
  child.send('usage')
  for (;;) {
    const [m] = (await once(child, 'message')) as [{ usage?: NodeJS.CpuUsage }]
    if (m.usage) return (m.usage.user + m.usage.system) / 1000
  }
}

async function busyThenIdle(child: ChildProcess, monitor: ProcessMonitor) {
  const samples = collector()
  const errors: unknown[] = []
  await monitor.start(samples.onSample, (e) => errors.push(e))
  try {
    child.send('busy')
    await samples.next(2) // the tick that straddles the switch
    const before = { cpuMs: await ownCpuMs(child), at: performance.now() }
    const busy = await samples.next(4)
    const truth = (((await ownCpuMs(child)) - before.cpuMs) / (performance.now() - before.at)) * 100
    child.send('idle')
    await samples.next(2)
    const idle = await samples.next(4)
    expect(errors).toEqual([])
    expectBusyThenIdle(busy, idle, truth)
    return { busy, idle }
  } finally {
    await monitor.stop()
  }
}

describe('process monitor', () => {
  it('sees a busy child as ~one core and an idle one as ~0, with memory', async () => {
    const child = spawnScript(BURNER)
    await firstMessage(child)
    const monitor = new ProcessMonitor({ kind: 'process', pid: child.pid! }, 'burner', 250)
    const { busy, idle } = await busyThenIdle(child, monitor)
    for (const s of [...busy, ...idle]) {
      expect(s).toMatchObject({
        source: 'process',
        target: 'burner',
        instance: String(child.pid),
        state: 'running',
      })
      expect(s.memoryBytes).toBeGreaterThan(1024 * 1024)
    }
  })

  it('finds a node cluster by its port and counts its worker', async () => {
    const primary = spawnScript(CLUSTER)
    const msg = await firstMessage<{ port: number }>(primary)
    const monitor = new ProcessMonitor({ kind: 'process', port: msg.port }, 'cluster', 250)
    const { busy } = await busyThenIdle(primary, monitor)
    // The primary holds the listening socket; the busy worker is its child.
    expect(busy[0]?.instance).toBe(String(primary.pid))
    // Two node processes: well over one's RSS.
    expect(busy[0]?.memoryBytes).toBeGreaterThan(40 * 1024 * 1024)
  })

  it('with tree: true, samples each process apart: the burning child ~one core, its idle sibling and parent ~0', async () => {
    const parent = spawnScript(FAMILY)
    const { pids } = await firstMessage<{ pids: [number, number] }>(parent)
    const [burner, idler] = pids
    const samples = collector()
    const errors: unknown[] = []
    const monitor = new ProcessMonitor({ kind: 'process', pid: parent.pid!, tree: true }, 'family', 250)
    await monitor.start(samples.onSample, (e) => errors.push(e))
    try {
      const of = (list: ResourceSample[], pid: number) => list.filter((x) => x.instance === String(pid))
      parent.send('busy')
      await samples.next(3 * 2) // the ticks that straddle the switch (three processes a tick)
      const before = { cpuMs: await ownCpuMs(parent), at: performance.now() }
      const busy = await samples.next(3 * 4)
      const truth = (((await ownCpuMs(parent)) - before.cpuMs) / (performance.now() - before.at)) * 100
      parent.send('idle')
      await samples.next(3 * 2)
      const idle = await samples.next(3 * 4)
      expect(errors).toEqual([])
      // Every tick names the three processes, each with its own memory.
      expect(new Set(busy.map((x) => x.instance))).toEqual(new Set([parent.pid, burner, idler].map(String)))
      for (const x of busy) expect(x.memoryBytes).toBeGreaterThan(1024 * 1024)
      expectBusyThenIdle(of(busy, burner), of(idle, burner), truth)
      expect(meanCpu(of(busy, idler)), 'the idle sibling while the other burns').toBeLessThan(10)
      expect(meanCpu(of(busy, parent.pid!)), 'the parent while a child burns').toBeLessThan(10)
    } finally {
      await monitor.stop()
    }
  })

  it('reports an exited process as state exited, not an error', async () => {
    const child = spawnScript(BURNER)
    await firstMessage(child)
    const samples = collector()
    const errors: unknown[] = []
    const monitor = new ProcessMonitor({ kind: 'process', pid: child.pid! }, 'x', 100)
    await monitor.start(samples.onSample, (e) => errors.push(e))
    await samples.next(1)
    child.kill('SIGKILL')
    await once(child, 'exit')
    const after = await samples.next(3)
    await monitor.stop()
    expect(after.at(-1)).toMatchObject({ state: 'exited', cpuPercent: null, memoryBytes: null })
    expect(errors).toEqual([])
  })

  it('rejects an unknown pid or an unused port with not-found', async () => {
    const byPid = new ProcessMonitor({ kind: 'process', pid: 2 ** 22 + 7 }, 'x')
    await expect(
      byPid.start(
        () => {},
        () => {},
      ),
    ).rejects.toMatchObject({ code: 'not-found' })
    const byPort = new ProcessMonitor({ kind: 'process', port: 1 }, 'x')
    const error: unknown = await byPort
      .start(
        () => {},
        () => {},
      )
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MonitorError)
    expect((error as MonitorError).message).toMatch(/no process is listening on TCP port 1/)
  })
})
