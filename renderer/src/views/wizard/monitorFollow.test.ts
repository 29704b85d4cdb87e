// A template's monitor after the target's URL changed: asked about when the URL no longer goes to
// the stack it watches, and each answer does what it says (keep, follow the target, remove).
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { RunConfigV1Schema } from '#engine/config/schema.ts'
import { defaultDraft, toConfigInput, type TargetDraft } from './draft.ts'
import { fromConfig } from './fromConfig.ts'
import { answerMonitorQuestion, monitorQuestion, type StackPlace } from './monitorFollow.ts'

const templates = import.meta.glob<string>('../../../../resources/templates/*.yaml', {
  query: '?raw',
  import: 'default',
  eager: true,
})
const template = (id: string) => templates[`../../../../resources/templates/${id}.yaml`] ?? ''
const poolSizing = template('thesis-pool-size')
const soaBurst = template('soa-burst')

// Where the bundled stacks answer (as stacks.status() gives it).
const STACKS: StackPlace[] = [
  {
    name: 'java-jetty',
    url: 'http://127.0.0.1:8081',
    project: 'cannonade-java-jetty-abc123',
    containers: [{ name: 'cannonade-java-jetty-abc123-app-1' }],
  },
  { name: 'node-http', url: 'http://127.0.0.1:8082', project: 'cannonade-node-http-abc123', containers: [] },
  {
    name: 'java-tomcat',
    url: 'http://127.0.0.1:8084',
    project: 'cannonade-java-tomcat-abc123',
    containers: [],
  },
]

function target(yaml: string, i = 0): TargetDraft {
  return fromConfig(RunConfigV1Schema.parse(parse(yaml))).targets[i]!
}

function answered(t: TargetDraft, a: 'keep' | 'follow' | 'remove'): TargetDraft {
  const q = monitorQuestion(t, STACKS)
  if (!q) throw new Error('no question')
  const copy = structuredClone(t)
  answerMonitorQuestion(copy, q, a, STACKS)
  return copy
}

describe("a template's monitor after the URL changes", () => {
  it('asks nothing while the URL goes to the stack the monitor watches', () => {
    expect(monitorQuestion(target(soaBurst), STACKS)).toBeNull()
    const t = { ...target(soaBurst), url: 'http://localhost:8084/other' }
    expect(monitorQuestion(t, STACKS)).toBeNull()
  })

  // [the new URL, what following means]
  it.each([
    ['http://127.0.0.1:8082/ads', { kind: 'stack', stack: 'node-http' }],
    ['http://127.0.0.1:39123/ads', { kind: 'process', port: 39123 }],
    ['http://localhost/ads', { kind: 'process', port: 80 }],
    ['http://10.1.2.3:8084/ads', null],
    ['https://bench.example.com/ads', null],
  ] as const)('asks when the URL goes to %s', (url, follow) => {
    const q = monitorQuestion({ ...target(soaBurst), url }, STACKS)
    expect(q).toMatchObject({ stack: 'java-tomcat', stackPort: 8084, follow })
  })

  it('finds the stack of a monitor by compose project or container too', () => {
    const t = target(soaBurst)
    t.url = 'http://127.0.0.1:8082/'
    t.monitor.docker = { ...t.monitor.docker, by: 'project', project: 'cannonade-java-jetty-abc123' }
    expect(monitorQuestion(t, STACKS)?.stack).toBe('java-jetty')
    t.monitor.docker = {
      ...t.monitor.docker,
      by: 'container',
      container: 'cannonade-java-jetty-abc123-app-1',
    }
    expect(monitorQuestion(t, STACKS)?.stack).toBe('java-jetty')
    t.monitor.docker.container = 'somebody-elses'
    expect(monitorQuestion(t, STACKS)).toBeNull()
  })

  it('keeps the monitor for this URL, and asks again when the URL changes', () => {
    const t = answered({ ...target(soaBurst), url: 'http://127.0.0.1:39123/' }, 'keep')
    expect(monitorQuestion(t, STACKS)).toBeNull()
    expect(toConfigInput({ ...defaultDraft(), targets: [t] }).targets[0]).toMatchObject({
      monitor: { kind: 'docker', stack: 'java-tomcat' },
    })
    expect(monitorQuestion({ ...t, url: 'http://127.0.0.1:39124/' }, STACKS)).not.toBeNull()
  })

  it('follows the target to the stack on its port: every monitor of the old stack, and the stack it runs on', () => {
    const t = answered({ ...target(poolSizing), url: 'http://127.0.0.1:8082/ads?limit=20' }, 'follow')
    expect(monitorQuestion(t, STACKS)).toBeNull()
    const input = toConfigInput({ ...defaultDraft(), targets: [t] }).targets[0]
    expect(input?.monitor).toEqual([
      { kind: 'docker', stack: 'node-http' },
      { kind: 'postgres', stack: 'node-http' },
    ])
    expect(input?.stack).toMatchObject({ name: 'node-http', env: { POOL_SIZE: 30 } })
  })

  it('follows a local target on no stack to the process listening on its port', () => {
    const t = answered({ ...target(poolSizing), url: 'http://127.0.0.1:39123/' }, 'follow')
    expect(monitorQuestion(t, STACKS)).toBeNull()
    expect(toConfigInput({ ...defaultDraft(), targets: [t] }).targets[0]?.monitor).toEqual({
      kind: 'process',
      port: 39123,
    })
  })

  it('removes the monitors of the other server', () => {
    const t = answered({ ...target(poolSizing), url: 'https://bench.example.com/' }, 'remove')
    expect(monitorQuestion(t, STACKS)).toBeNull()
    expect(toConfigInput({ ...defaultDraft(), targets: [t] }).targets[0]?.monitor).toBeUndefined()
  })
})
