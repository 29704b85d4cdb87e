import { describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { successRule, successText } from '#engine/config/status-rule.ts'
import { defaultDraft, toConfigInput, validate } from './draft.ts'
import { expectInput } from './expectDraft.ts'
import { fromConfig } from './fromConfig.ts'

function draftWith(expectText: string) {
  const d = defaultDraft()
  d.targets[0]!.url = 'http://127.0.0.1:8080/ads'
  d.targets[0]!.expect = expectText
  return d
}

describe("a target's expected statuses in the wizard", () => {
  it('leaves the default rule (200–399) when the field is empty', () => {
    const v = validate(draftWith('  '))
    expect(v.issues.size).toBe(0)
    expect(v.config?.targets[0]?.expect).toBeUndefined()
    expect(successText(successRule(v.config!.targets[0]!))).toBe('200–399')
  })

  it('puts codes, ranges and classes into the config the CLI runs, and into the YAML Review shows', () => {
    const v = validate(draftWith('200-299, 304 ,, 4xx'))
    expect(v.issues.size).toBe(0)
    expect(v.config?.targets[0]?.expect).toEqual({ status: ['200-299', 304, '4xx'] })
    expect(successText(successRule(v.config!.targets[0]!))).toBe('200–299, 304, 400–499')
    expect(stringify(v.config)).toMatch(/expect:\n\s+status:\n\s+- 200-299\n\s+- 304\n\s+- 4xx\n/)
  })

  it("shows the schema's message for a wrong entry at the target's expect", () => {
    const v = validate(draftWith('200, 2xxx'))
    expect(v.config).toBeNull()
    const [field, message] = [...v.issues].find(([k]) => k.startsWith('targets.0.expect'))!
    expect(field).toBe('targets.0.expect.status.1')
    expect(message).toMatch(/"2xxx" is not a status code/)
    expect([...validate(draftWith('700')).issues.values()]).toEqual([
      expect.stringMatching(/not a status code/),
    ])
    expect([...validate(draftWith(' , ')).issues.values()]).toEqual([expect.stringMatching(/at least one/)])
  })

  it('comes back into the field from a stored config (run again, templates)', () => {
    const config = validate(draftWith('200-299,304')).config!
    const again = fromConfig(config)
    expect(again.targets[0]?.expect).toBe('200-299, 304')
    expect(toConfigInput(again).targets[0]).toMatchObject({ expect: { status: ['200-299', 304] } })
    expect(expectInput('')).toBeUndefined()
  })
})
