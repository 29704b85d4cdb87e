// An Api refusal names the argument and the field in it, as the Api's parameters are named
// (engine/api/api.ts): "runs:tag: tags[0] …", never a tuple index path like "argument 1.0".
import { describe, expect, it } from 'vitest'
import { CHANNELS, type Channel } from './channels.ts'
import { ApiError } from './errors.ts'
import { argNames, argSchemas, argumentWhere, parseArgs } from './schemas.ts'

function refusal(channel: Channel, args: unknown[]): string {
  try {
    parseArgs(channel, args)
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).code).toBe('bad-input')
    return (err as ApiError).message
  }
  throw new Error(`${channel} took ${JSON.stringify(args).slice(0, 80)}`)
}

describe('Api refusals name the field', () => {
  it.each<[Channel, unknown[], string]>([
    ['runs:tag', [1, ['ok', 'x'.repeat(65)]], 'runs:tag: tags[1] must be at most 64 characters'],
    ['runs:tag', [1, ['']], 'runs:tag: tags[0] must not be empty'],
    [
      'runs:tag',
      [1, Array.from({ length: 51 }, (_, i) => `t${i}`)],
      'runs:tag: tags must hold at most 50 tags',
    ],
    ['runs:tag', [0, ['a']], 'runs:tag: runId '],
    ['runs:note', [1, 'x'.repeat(10_001)], 'runs:note: note must be at most 10,000 characters'],
    ['runs:note', [1, 42], 'runs:note: note must be text'],
    ['runs:list', [{ limit: 1e6 }], 'runs:list: query.limit '],
    ['runs:list', [{ tags: ['a', ''] }], 'runs:list: query.tags[1] must not be empty'],
    ['runs:series', [1, { maxPoints: 5 }], 'runs:series: options.maxPoints must be at least 10'],
    ['runs:samples', [1, { target: 'x'.repeat(100) }], 'runs:samples: query.target '],
    ['runs:compare', [{ runIds: [1, -2] }], 'runs:compare: query.runIds[1] '],
    ['exports:csv', [1, { kind: 'xml' }], 'exports:csv: options.kind '],
    ['exports:json', [[]], 'exports:json: runIds '],
    ['reports:create', [[1], { format: 'doc' }], 'reports:create: options.format '],
    ['scenarios:import', [{ kind: 'curl', text: '' }], 'scenarios:import: source.text is empty'],
    ['settings:set', [{ theme: 'pink' }], 'settings:set: patch.theme '],
    ['stacks:up', ['', {}], 'stacks:up: name '],
    ['targets:probe', ['http://127.0.0.1/', { insecure: 'yes' }], 'targets:probe: options.insecure '],
    ['studies:get', ['7'], 'studies:get: studyId '],
  ])('%s names the field (%#)', (channel, args, start) => {
    const message = refusal(channel, args)
    expect(message.startsWith(start), message).toBe(true)
    expect(message).not.toMatch(/argument \d/)
  })

  it('one argument too many is said of the arguments', () => {
    expect(refusal('runs:get', [1, 2])).toMatch(/^runs:get: the arguments /)
  })

  it('every channel refuses wrong arguments naming one of its own, or the arguments', () => {
    for (const channel of CHANNELS) {
      const length = (argSchemas[channel] as unknown as { _zod: { def: { items: unknown[] } } })._zod.def
        .items.length
      const names = [...(argNames[channel] ?? []), 'the arguments']
      const message = refusal(
        channel,
        Array.from({ length: length + 1 }, () => ({ bogus: true })),
      )
      expect(
        names.some((n) => message.startsWith(`${channel}: ${n}`)),
        message,
      ).toBe(true)
    }
  })

  it('every argument of every channel has a name', () => {
    for (const channel of CHANNELS) {
      const items = (argSchemas[channel] as unknown as { _zod: { def: { items: unknown[] } } })._zod.def.items
      expect(argNames[channel] ?? [], channel).toHaveLength(items.length)
    }
  })

  it('an argument without a name is "argument N", counted from 1', () => {
    expect(argumentWhere(undefined, [0])).toBe('argument 1')
    expect(argumentWhere(['runId'], [1, 'x', 0])).toBe('argument 2.x[0]')
    expect(argumentWhere(['runId'], [])).toBe('the arguments')
  })
})
