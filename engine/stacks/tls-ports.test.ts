// Where a stack started with TLS=on listens for HTTPS: the port of its targets' https:// URL (the
// plain port from their http:// URL), refused with replicas (the balancer passes plain HTTP only)
// and on a stack that serves no TLS. Docker and native starts are tested in targets/contract*.test.ts.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseRunConfig } from '../config/load.ts'
import { portsOf } from './policy.ts'
import { Stacks } from './stacks.ts'

const stack = { name: 'node-http', env: { HTTP2: 'on', TLS: 'on' } }
const config = (urls: string[]) =>
  parseRunConfig({
    version: 1,
    name: 'ports',
    targets: urls.map((url, i) => ({
      name: `t${i}`,
      url,
      stack,
      ...(url.startsWith('https') ? { protocol: 'h2', insecure: true } : {}),
    })),
    load: { connections: 1, duration: 1 },
    rounds: 3,
    schedule: 'interleaved',
  })

describe("a stack's ports from its targets' URLs", () => {
  it('takes the plain port from an http:// URL and the TLS port from an https:// one, whatever their order', () => {
    const both = ['https://127.0.0.1:9442/ads/1', 'http://127.0.0.1:9082/ads/1', 'http://127.0.0.1:9082/x']
    expect(portsOf(config(both), 'node-http')).toEqual({ port: 9082, tlsPort: 9442 })
    expect(portsOf(config(both.slice(1)), 'node-http')).toEqual({ port: 9082, tlsPort: null })
    expect(portsOf(config(both.slice(0, 1)), 'node-http')).toEqual({ port: null, tlsPort: 9442 })
    expect(portsOf(config(both), 'java-jetty')).toEqual({ port: null, tlsPort: null })
  })
})

describe('TLS=on', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-tls-ports-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const stacks = new Stacks({ stateDir: join(dir, 'native-stacks') })

  it('is refused with replicas, saying the balancer passes plain HTTP only', async () => {
    await expect(stacks.up('node-http', { env: { TLS: 'on' }, replicas: 2 })).rejects.toThrow(
      /TLS=on runs one instance of node-http: the balancer in front of replicas passes plain HTTP only/,
    )
  })

  it('is refused on a stack that serves no TLS', async () => {
    await expect(stacks.up('node-cluster', { env: { TLS: 'on' } })).rejects.toThrow(
      /stack node-cluster serves no TLS/,
    )
  })
})
