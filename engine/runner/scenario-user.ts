// The user a scenario connection plays, HTTP/1.1's and HTTP/2's alike: which step it sends next,
// the variables its requests are rendered with, and where a pass goes on after an answer. A new
// user (step 0) gets its `${user}`, `${iteration}`, `${conn}` and `${run}`; each pass of the
// repeating steps a new `${iteration}`. A failed step ends the pass: the next request starts it
// over, from the first repeating step once the user is set up, else from the first once-step
// (like a failed Locust task).
import { ERROR_KINDS } from '../api/types.ts'
import type { BuiltinVariable } from '../config/wire.ts'
import { applyCaptures, type ScenarioSetup } from './scenario.ts'

const ERR_CAPTURE = ERROR_KINDS.indexOf('capture')

export class ScenarioUser {
  /** The step the next request is. */
  step = 0
  vars: Record<string, string> = {}
  /** The last answer's raw header lines (name, value, …), for header captures. */
  lastHeaders: string[] = []
  private setupDone = false
  readonly setup: ScenarioSetup
  private readonly conn: number
  private readonly nextIteration: () => number

  constructor(setup: ScenarioSetup, conn: number, nextIteration: () => number) {
    this.setup = setup
    this.conn = conn
    this.nextIteration = nextIteration
  }

  /** The next request's step, its variables set for it (a new user's, or a new pass's iteration). */
  next(): number {
    const s = this.setup
    if (this.step === 0) {
      const n = String(this.nextIteration())
      // `${run}`: the run's correlation prefix, so names made from it are new in every run (a
      // stack's database keeps the users of earlier runs).
      const builtins: Record<BuiltinVariable, string> = {
        iteration: n,
        user: n,
        conn: String(this.conn),
        run: s.correlationPrefix,
      }
      this.vars = { ...builtins }
    } else if (this.step === s.firstLoop) this.vars.iteration = String(this.nextIteration())
    return this.step
  }

  /**
   * Step `step` was answered with error kind `kind` (0: a success): a success's captures are read
   * from `body` and the user moves on; a failure, or a capture that found nothing, ends the pass.
   * The answer's error kind.
   */
  answered(step: number, kind: number, body: string): number {
    if (kind === 0 && !applyCaptures(this.setup.steps[step]!, body, this.lastHeaders, this.vars))
      kind = ERR_CAPTURE
    if (kind !== 0) this.restart()
    else {
      this.step = this.step + 1 === this.setup.steps.length ? this.setup.firstLoop : this.step + 1
      if (this.step >= this.setup.firstLoop) this.setupDone = true
    }
    return kind
  }

  /** The pass ends (a failed step, a lost socket): a set-up user goes on with what it captured. */
  restart(): void {
    this.step = this.setupDone ? this.setup.firstLoop : 0
  }
}
