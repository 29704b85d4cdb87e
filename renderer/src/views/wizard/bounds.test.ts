// The wizard shows the engine's bounds and wire rules at the field they are about, from the same
// schema the CLI uses; and its live preview, which compiles the schedule as the user types, is
// never handed a load past a bound (it once ran the page out of memory on burstSeconds: 1e-9).
import { describe, expect, it } from 'vitest'
import { StoredRunConfigSchema } from '#engine/config/schema.ts'
import { defaultDraft, loadInput, validate } from './draft.ts'
import { emptyStep } from './scenarioDraft.ts'

function valid() {
  const d = defaultDraft()
  d.targets[0] = { ...d.targets[0]!, name: 'demo', url: 'http://127.0.0.1:8082/ads?limit=2' }
  return d
}

describe('wizard: bounds and wire rules by field', () => {
  it.each<[string, (d: ReturnType<typeof valid>) => void, string, RegExp]>([
    [
      'a nanosecond burst',
      (d) => {
        d.load.profile.kind = 'burst'
        d.load.profile.burst.burstSeconds = 1e-9
      },
      'load.profile.burstSeconds',
      /at least 0\.001/,
    ],
    [
      'millisecond bursts for an hour',
      (d) => {
        d.load.duration = 3600
        d.load.profile.kind = 'burst'
        d.load.profile.burst = { burstSeconds: 0.001, idleSeconds: 0.001, connections: undefined }
      },
      'load.profile.burstSeconds',
      /schedule steps/,
    ],
    [
      'a rate whose timer would overflow',
      (d) => {
        d.load.rateLimited = true
        d.load.rate = 1e-9
      },
      'load.rate',
      /at least 0\.001/,
    ],
    [
      'a Content-Length header',
      (d) => {
        d.targets[0]!.headers = [{ name: 'Content-Length', value: '3' }]
      },
      'targets.0.headers.Content-Length',
      /from the body/,
    ],
    [
      'an unknown variable in a step',
      (d) => {
        d.targets[0]!.steps = [
          { ...emptyStep('me', '/me'), headers: [{ name: 'authorization', value: 'Bearer ${token}' }] },
        ]
      },
      'targets.0.steps.0.headers.authorization',
      /\$\{token\}, which no earlier step captures/,
    ],
  ])('%s', (_name, change, field, message) => {
    const d = valid()
    expect(validate(d).list).toEqual([])
    change(d)
    expect(validate(d).issues.get(field)).toMatch(message)
  })

  it('the preview is refused the load, not compiled', () => {
    const d = valid()
    d.load.duration = 3600
    d.load.profile.kind = 'burst'
    d.load.profile.burst = { burstSeconds: 0.001, idleSeconds: 0, connections: undefined }
    expect(StoredRunConfigSchema.shape.load.safeParse(loadInput(d.load)).success).toBe(false)
  })
})
