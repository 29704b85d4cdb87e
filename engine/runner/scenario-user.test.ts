import { describe, expect, it } from 'vitest'
import { ERROR_KINDS } from '../api/types.ts'
import { StepSchema } from '../config/schema-target.ts'
import { scenarioSetup } from './scenario.ts'
import { ScenarioUser } from './scenario-user.ts'

const CAPTURE = ERROR_KINDS.indexOf('capture')
const STATUS = ERROR_KINDS.indexOf('status')

/** login once (captures a token), then browse and buy in a loop; iterations counted from 1. */
function user() {
  const steps = [
    { name: 'login', path: '/login', once: true, capture: { token: { json: 'token' } } },
    { name: 'browse', path: '/items' },
    { name: 'buy', path: '/buy' },
  ].map((s) => StepSchema.parse(s))
  const setup = scenarioSetup({ steps }, new URL('http://127.0.0.1:1/'), true, 'x-id', 'r7')
  let iteration = 0
  return new ScenarioUser(setup, 3, () => ++iteration)
}

describe('a scenario connection’s user', () => {
  it('a new user gets its variables, each pass of the loop a new iteration, and captures stay', () => {
    const u = user()
    expect(u.next()).toBe(0)
    expect(u.vars).toEqual({ iteration: '1', user: '1', conn: '3', run: 'r7' })
    expect(u.answered(0, 0, '{"token":"abc"}')).toBe(0)
    expect(u.next()).toBe(1)
    expect(u.vars).toMatchObject({ iteration: '2', user: '1', token: 'abc' })
    expect(u.answered(1, 0, '')).toBe(0)
    expect(u.next()).toBe(2)
    expect(u.answered(2, 0, '')).toBe(0)
    // The loop starts over after its last step: the once-step is not repeated.
    expect(u.next()).toBe(1)
    expect(u.vars).toMatchObject({ iteration: '3', user: '1', token: 'abc' })
  })

  it('a failed step ends the pass: before set-up the user starts over, after it the loop does', () => {
    const u = user()
    u.next()
    // The capture found nothing: a capture error, and the user is not set up.
    expect(u.answered(0, 0, '{}')).toBe(CAPTURE)
    expect(u.next()).toBe(0)
    expect(u.vars.user).toBe('2')
    expect(u.answered(0, 0, '{"token":"t"}')).toBe(0)
    u.next()
    expect(u.answered(1, 0, '')).toBe(0)
    u.next()
    // An unexpected status at `buy`: the next request is the loop's first step, token kept.
    expect(u.answered(2, STATUS, '')).toBe(STATUS)
    expect(u.next()).toBe(1)
    expect(u.vars).toMatchObject({ user: '2', token: 't' })
    // A lost socket (restart) after set-up: the loop again, not the login.
    u.restart()
    expect(u.next()).toBe(1)
  })
})
