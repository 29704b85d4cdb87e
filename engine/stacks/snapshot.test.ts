// How a running compose stack is read back (Stacks.snapshot, what a sweep restores a stack to,
// and status) when the Docker host setting points elsewhere: every docker command goes there,
// and the snapshot carries the settings and limits the app container runs with. The Docker
// "elsewhere" is a `docker` command first on PATH (engine/testing/docker-fake.ts) that logs each
// call with its DOCKER_HOST and answers for one running, healthy app container.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fakeDockerCli, type FakeDockerCli } from '../testing/docker-fake.ts'
import { Stacks } from './stacks.ts'

const HOST = 'tcp://docker.elsewhere.example:2375'
const APP = 'c0ffee'
let cli: FakeDockerCli
let stateDir: string
const path = process.env.PATH

beforeAll(() => {
  cli = fakeDockerCli({
    'ps -a': [`${APP}\tcannonade-node-http-1-app-1\trunning\tUp 2 minutes (healthy)\tapp`],
    'inspect --format {{.HostConfig': ['500000000 0 0 268435456'],
    'inspect --format {{json .Config.Env}}': ['["POOL_SIZE=7","PATH=/usr/bin","HASH_ITERATIONS=3"]'],
    port: ['127.0.0.1:18082'],
  })
  process.env.PATH = `${cli.dir}:${path ?? ''}`
  stateDir = mkdtempSync(join(tmpdir(), 'cannonade-snapshot-'))
})
afterAll(() => {
  process.env.PATH = path
  cli.close()
  rmSync(stateDir, { recursive: true, force: true })
})

describe('a compose stack read back on the Docker host setting', () => {
  it('sends every docker command there, and snapshots the settings and limits the app runs with', async () => {
    const stacks = new Stacks({ stateDir, dockerHost: () => HOST })
    const snapshot = await stacks.snapshot('node-http')
    expect(snapshot).toEqual({
      name: 'node-http',
      running: true,
      native: false,
      // Only the variables the stack's compose files read (PATH is not one); limits as compose writes them.
      env: { POOL_SIZE: '7', HASH_ITERATIONS: '3', CANNONADE_APP_CPUS: '0.5', CANNONADE_APP_MEM: '256m' },
      replicas: 1,
      port: 18082,
    })
    const status = (await stacks.status()).find((s) => s.name === 'node-http')
    expect(status).toMatchObject({
      state: 'healthy',
      url: 'http://127.0.0.1:18082',
      limits: { cpus: 0.5, memory: '256m' },
      replicas: 1,
    })
    const calls = cli.calls()
    expect(calls.map((c) => c.args.split(' ')[0])).toEqual(
      expect.arrayContaining(['info', 'ps', 'inspect', 'port']),
    )
    expect(calls.filter((c) => c.host !== HOST)).toEqual([])
  })
})
