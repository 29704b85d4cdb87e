// A docker monitor's container, project, service and stack follow Docker's own grammar, checked
// before any call: `.`, `..` or `../x` once became a path of the Engine API URL.
import { describe, expect, it } from 'vitest'
import { MonitorSpecSchema } from './schema-monitor.ts'

/** Values no Docker name can be. */
export const BAD_DOCKER_NAMES = [
  '.',
  '..',
  '../x',
  './x',
  'a/b',
  '/..',
  '',
  ' ',
  ' c',
  '-c',
  '_c',
  'x\u0000',
  'x\u001b[2J',
  'x\r\ny',
  'http://127.0.0.1:1/',
  '%2e%2e',
  'c?all=1',
  'c#x',
  'é',
  'x'.repeat(300),
] as const
export const BAD_DOCKER_NAMES_MIN = 20

const fields = ['container', 'project', 'service', 'stack'] as const

function spec(field: (typeof fields)[number], value: string): Record<string, unknown> {
  if (field === 'service') return { kind: 'docker', project: 'p', service: value }
  return { kind: 'docker', [field]: value }
}

describe('docker monitor names', () => {
  it("refuse whatever Docker's grammar does not allow, naming the field", () => {
    let tried = 0
    for (const field of fields) {
      for (const value of BAD_DOCKER_NAMES) {
        const r = MonitorSpecSchema.safeParse(spec(field, value))
        expect(r.success, `${field}=${JSON.stringify(value)}`).toBe(false)
        expect(
          r.error?.issues.map((i) => i.path.join('.')),
          field,
        ).toContain(field)
        tried++
      }
    }
    const pg = BAD_DOCKER_NAMES.filter(
      (v) => !MonitorSpecSchema.safeParse({ kind: 'postgres', stack: v }).success,
    )
    tried += pg.length
    expect(pg).toEqual([...BAD_DOCKER_NAMES])
    console.log(`hostile cases tried: ${tried}`)
    expect(BAD_DOCKER_NAMES.length).toBeGreaterThanOrEqual(BAD_DOCKER_NAMES_MIN)
  })

  it('accept names and ids Docker accepts', () => {
    const ok: [(typeof fields)[number], string][] = [
      ['container', 'shop-app_1'],
      ['container', '/shop.app'],
      ['container', 'a3f9c2e1b7d4'],
      ['container', 'f'.repeat(64)],
      ['project', 'cannonade-node-http-1a2b'],
      ['service', 'app'],
      ['stack', 'node-http'],
    ]
    for (const [field, value] of ok)
      expect(MonitorSpecSchema.safeParse(spec(field, value)).success, value).toBe(true)
    expect(MonitorSpecSchema.safeParse({ kind: 'docker', project: 'Shop' }).success).toBe(false)
  })
})
