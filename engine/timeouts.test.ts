// Every wait on the outside has a timeout (issue 12, item 5), and each timeout names what did not
// answer: a `docker` command that never returns (a fake one on PATH that sleeps, and one whose child
// keeps the output pipe open), a Docker engine socket that accepts and stays silent, a Cloud
// Foundry API that stops answering, and a target that accepts a connection and never answers (or
// trickles its response). PostgreSQL's are in exports/pg-archive.test.ts.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCommand } from './command.ts'
import { probeTarget } from './config/probe.ts'
import { parseRunConfig } from './config/load.ts'
import { FakeCloudFoundry } from './testing/cf-fake.ts'
import { httpRequest } from './monitor/cf-http.ts'
import { CloudFoundryMonitor } from './monitor/cloudfoundry.ts'
import { DockerMonitor } from './monitor/docker.ts'
import { MonitorError } from './monitor/types.ts'
import { gatherEnvironment } from './runner/environment.ts'
import { detectCompose, DOCKER_TIMEOUTS } from './stacks/compose.ts'
import { Stacks } from './stacks/stacks.ts'

const dir = mkdtempSync(join(tmpdir(), 'cannonade-timeouts-'))

/** Run `fn` with a fake `docker` (a shell script) first on PATH. */
async function withFakeDocker<T>(script: string, fn: () => Promise<T>): Promise<T> {
  const bin = mkdtempSync(join(dir, 'bin-'))
  writeFileSync(join(bin, 'docker'), `#!/bin/sh\n${script}\n`)
  chmodSync(join(bin, 'docker'), 0o755)
  const path = process.env.PATH
  process.env.PATH = `${bin}:${path}`
  try {
    return await fn()
  } finally {
    process.env.PATH = path
  }
}

/** What `fn` resolves to, or the error it throws. A hang would fail the test at its own timeout. */
async function elapsed<T>(fn: () => Promise<T>): Promise<{ value: T | Error }> {
  const value = await fn().then(
    (v) => v,
    (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
  )
  return { value }
}

/** A TCP (or Unix socket) server that accepts and never says a word. */
async function silent(path?: string): Promise<{ port: number; close(): Promise<void> }> {
  const sockets: Socket[] = []
  const server: Server = createServer((s) => sockets.push(s))
  await new Promise<void>((r) => (path ? server.listen(path, r) : server.listen(0, '127.0.0.1', r)))
  return {
    port: path ? 0 : (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy()
        server.close(() => r())
      }),
  }
}

describe('a docker command that never returns', () => {
  const saved = { ...DOCKER_TIMEOUTS }
  beforeAll(() => {
    DOCKER_TIMEOUTS.info = 800
    DOCKER_TIMEOUTS.version = 800
    DOCKER_TIMEOUTS.query = 800
    DOCKER_TIMEOUTS.up = 800
    DOCKER_TIMEOUTS.down = 800
  })
  afterAll(() => void Object.assign(DOCKER_TIMEOUTS, saved))

  const sleepers = [
    { name: 'sleeps', script: 'exec sleep 600' },
    { name: 'leaves a child holding its output open', script: 'sleep 600 &\nwait' },
  ]
  for (const s of sleepers) {
    it(`(it ${s.name}): the command is killed at its deadline, and says so`, async () => {
      const { value } = await elapsed(() =>
        withFakeDocker(s.script, () => runCommand('docker', ['info'], { timeoutMs: 500 })),
      )
      expect(value).toMatchObject({ timedOut: true, code: 124 })
    })
  }

  const calls: { name: string; run: () => Promise<unknown>; message: RegExp }[] = [
    {
      name: 'detecting Docker Compose',
      run: async () => detectCompose({ fresh: true }),
      message: /`docker info` \(the Docker engine\) did not answer within 1 s/,
    },
    {
      name: 'starting a stack',
      run: () => new Stacks({ stateDir: join(dir, 'native') }).up('node-http'),
      message: /`docker info` \(the Docker engine\) did not answer within 1 s/,
    },
    {
      name: "the stacks' status (each stack down, no error)",
      run: async () => (await new Stacks({ stateDir: join(dir, 'native') }).status()).map((x) => x.state),
      message: /^$/,
    },
  ]
  for (const c of calls) {
    it(`${c.name}: ends at the deadline with a message naming what did not answer`, async () => {
      const { value } = await elapsed(() => withFakeDocker('exec sleep 600', c.run))
      if (value instanceof Error) expect(value.message).toMatch(c.message)
      else expect(new Set(value as string[])).toEqual(new Set(['down']))
    })
  }

  it('detecting Docker Compose waits without holding the event loop (issue 29, the host never blocks)', async () => {
    let ticks = 0
    const timer = setInterval(() => ticks++, 10)
    try {
      const { value } = await elapsed(() =>
        withFakeDocker('exec sleep 600', () => detectCompose({ fresh: true })),
      )
      expect(value).toBeInstanceOf(Error)
      // Run synchronously, `docker info` held the loop until its deadline: no timer fired meanwhile.
      expect(ticks).toBeGreaterThan(10)
    } finally {
      clearInterval(timer)
    }
  })

  it("a run's environment (docker ps and inspect of monitored containers) is gathered anyway", async () => {
    const config = parseRunConfig({
      version: 1,
      name: 'env',
      targets: [{ name: 't', url: 'http://127.0.0.1:9/x', monitor: { kind: 'docker', project: 'p' } }],
      load: { connections: 1, duration: 1 },
    })
    const { value } = await elapsed(() => withFakeDocker('exec sleep 600', () => gatherEnvironment(config)))
    expect(value).toMatchObject({ details: { targets: [{ name: 't', containers: [] }] } })
  }, 30_000)
})

describe('a Docker engine socket that does not answer', () => {
  let sock: string
  let server: http.Server
  beforeAll(async () => {
    // Answers its ping (the engine is "up"), and nothing else.
    sock = join(dir, 'docker.sock')
    server = http.createServer((req, res) => {
      if (req.url?.endsWith('/_ping')) res.end('OK')
    })
    await new Promise<void>((r) => server.listen(sock, r))
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((r) => server.close(r))
  })

  for (const spec of [
    { what: 'inspecting container app', spec: { kind: 'docker' as const, container: 'app' } },
    { what: 'listing compose project shop', spec: { kind: 'docker' as const, project: 'shop' } },
  ]) {
    it(`${spec.what}: the monitor's start fails, naming the engine and the call`, async () => {
      const monitor = new DockerMonitor({ ...spec.spec, socketPath: sock }, 't', 1000, undefined, 500)
      const { value } = await elapsed(() =>
        monitor.start(
          () => {},
          () => {},
        ),
      )
      expect(value).toBeInstanceOf(MonitorError)
      expect((value as Error).message).toBe(
        `the Docker engine at ${sock} did not answer within 0.5 s (${spec.what})`,
      )
      await monitor.stop()
    })
  }

  it('a socket that accepts and stays silent, even to the ping: named', async () => {
    const path = join(dir, 'silent.sock')
    const s = await silent(path)
    try {
      const monitor = new DockerMonitor({ kind: 'docker', container: 'app', socketPath: path }, 't')
      const { value } = await elapsed(() =>
        monitor.start(
          () => {},
          () => {},
        ),
      )
      expect((value as Error).message).toMatch(
        new RegExp(`Docker engine not reachable at ${path} \\(ETIMEDOUT\\)`),
      )
    } finally {
      await s.close()
    }
  }, 20_000)
})

describe('a Cloud Foundry API that stops answering', () => {
  let cf: FakeCloudFoundry
  beforeAll(async () => {
    cf = new FakeCloudFoundry()
    cf.addApp({ name: 'ads', space: 'dev', instances: [{ state: 'RUNNING', cpu: 0.2, mem: 1e8 }] })
    await cf.start()
  })
  afterAll(async () => {
    await cf.close()
  })

  for (const path of ['/', '/oauth/token', '/v3/apps']) {
    it(`a request to ${path} that is never answered ends at its timeout, naming the API`, async () => {
      cf.freeze = new RegExp(`^${path.replace(/\//g, '\\/')}$`)
      try {
        const { value } = await elapsed(() => httpRequest(`${cf.url}${path}`, { timeoutMs: 400 }))
        expect((value as Error).message).toBe(`${cf.url} did not answer within 400 ms`)
      } finally {
        cf.freeze = null
      }
    })
  }

  it('a TLS API with verification off (its own code path) that never answers: the same message', async () => {
    const s = await silent()
    try {
      const url = `https://127.0.0.1:${s.port}`
      const { value } = await elapsed(() => httpRequest(`${url}/v3/apps`, { insecure: true, timeoutMs: 400 }))
      expect((value as Error).message).toBe(`${url} did not answer within 400 ms`)
    } finally {
      await s.close()
    }
  })

  it("the monitor's start against a frozen API fails with that message (its own 10 s timeout)", async () => {
    cf.freeze = /^\/v3\//
    try {
      const monitor = new CloudFoundryMonitor(
        { kind: 'cloudfoundry', api: cf.url, app: 'ads', auth: { grant: 'password', username: 'alice' } },
        't',
        { password: 's3cret' },
      )
      const { value } = await elapsed(() =>
        monitor.start(
          () => {},
          () => {},
        ),
      )
      expect((value as Error).message).toMatch(new RegExp(`${cf.url} did not answer within 10000 ms`))
      await monitor.stop()
    } finally {
      cf.freeze = null
    }
  }, 30_000)
})

describe('the target probe', () => {
  it('a server that accepts and never answers: the probe ends, naming it', async () => {
    const s = await silent()
    try {
      const url = `http://127.0.0.1:${s.port}/health`
      const { value } = await elapsed(() => probeTarget(url, { timeoutMs: 400 }))
      expect(value).toEqual({
        ok: false,
        status: null,
        latencyMs: null,
        error: `http://127.0.0.1:${s.port} did not answer within 400 ms`,
      })
    } finally {
      await s.close()
    }
  })

  it('a server that trickles its response: the deadline is for the whole answer', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      const t = setInterval(() => res.write('.'), 100)
      res.on('close', () => clearInterval(t))
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as { port: number }).port
    try {
      const { value } = await elapsed(() => probeTarget(`http://127.0.0.1:${port}/`, { timeoutMs: 500 }))
      expect(value).toMatchObject({
        ok: false,
        error: `http://127.0.0.1:${port} did not answer within 500 ms`,
      })
    } finally {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    }
  })
})
