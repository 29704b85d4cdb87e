// `npm run results`'s flags (main.ts): which experiments, their length (rounds until precise within
// a budget per experiment, or a fixed number of rounds for a check) and the quiet rule
// (bench/results/quiet.ts: how long to wait for the machine, how often to retry a busy section,
// how many busy rounds make one). Apart from main.ts so the tests can read them.
import { parseArgs } from 'node:util'
import {
  EXPERIMENTS,
  experimentOf,
  FULL,
  FULL_GOAL,
  RUN_ORDER,
  type Experiment,
  type Length,
} from './experiments.ts'
import { QUIET_DEFAULTS, type QuietRule } from './quiet.ts'

export const USAGE = `usage: npm run results [-- --only ID[,ID…]] [--seconds S] [--rounds R | --precision P --max-rounds N
                      --budget-minutes M] [--max-wait-minutes W] [--retries N] [--max-disturbed PCT]
                      [--allow-busy] [--doc]
  --only              experiments to run (default all): ${EXPERIMENTS.map((e) => e.id).join(', ')}
  --seconds           seconds per round (default ${FULL.seconds})
  --precision         rounds until every headline interval is within ± P % (default ${FULL_GOAL.precision})
  --max-rounds        …or N rounds (default ${FULL_GOAL.max}; at least ${FULL_GOAL.min})
  --budget-minutes    …or M minutes of rounds per experiment, shared by a sweep's runs (default ${FULL_GOAL.budgetMinutes})
  --rounds            exactly R rounds instead (a check); any length but the default runs in a check folder
  --max-wait-minutes  before each attempt, wait up to W minutes for the 1-minute load average to fall
                      below the cores, a line every 30 s (default ${QUIET_DEFAULTS.maxWaitMinutes})
  --retries           run a busy experiment again up to N times, waiting first (default ${QUIET_DEFAULTS.retries})
  --max-disturbed     an experiment is busy when more than PCT % of its rounds were disturbed by other
                      work, or the wait ran out before it started (default ${QUIET_DEFAULTS.maxDisturbedShare * 100})
  --allow-busy        neither wait nor retry: run at once; a busy experiment is still marked in the doc
  --doc               run nothing: draw the doc and its charts again from the results database`

export interface Flags {
  only: Experiment[]
  length: Length
  quiet: QuietRule
  docOnly: boolean
  help: boolean
}

/** A number from a flag, within bounds (whole when asked); the message names the flag. */
function numberOf(flag: string, text: string, min: number, max: number, whole: boolean): number {
  const n = Number(text)
  if (text.trim() === '' || !Number.isFinite(n) || n < min || n > max || (whole && !Number.isInteger(n)))
    throw new Error(`--${flag}: ${whole ? 'a whole number' : 'a number'} ${min}-${max}, got "${text}"`)
  return n
}

export function parseFlags(argv: string[]): Flags {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string' },
      seconds: { type: 'string', default: String(FULL.seconds) },
      rounds: { type: 'string' },
      precision: { type: 'string', default: String(FULL_GOAL.precision) },
      'max-rounds': { type: 'string', default: String(FULL_GOAL.max) },
      'budget-minutes': { type: 'string', default: String(FULL_GOAL.budgetMinutes) },
      'max-wait-minutes': { type: 'string', default: String(QUIET_DEFAULTS.maxWaitMinutes) },
      retries: { type: 'string', default: String(QUIET_DEFAULTS.retries) },
      'max-disturbed': { type: 'string', default: String(QUIET_DEFAULTS.maxDisturbedShare * 100) },
      'allow-busy': { type: 'boolean', default: false },
      doc: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  })
  const only = values.only
    ? values.only.split(',').map((id) => {
        const e = experimentOf(id.trim())
        if (!e)
          throw new Error(
            `--only: no experiment "${id}" (there are ${EXPERIMENTS.map((x) => x.id).join(', ')})`,
          )
        return e
      })
    : [...EXPERIMENTS]
  const rounds =
    values.rounds !== undefined
      ? numberOf('rounds', values.rounds, 1, 10, true)
      : {
          min: FULL_GOAL.min,
          max: numberOf('max-rounds', values['max-rounds'], FULL_GOAL.min, 1000, true),
          precision: numberOf('precision', values.precision, 0.1, 100, false),
          budgetMinutes: numberOf('budget-minutes', values['budget-minutes'], 1, 24 * 60, false),
        }
  return {
    only: RUN_ORDER.map((id) => EXPERIMENTS.find((e) => e.id === id)!).filter((e) => only.includes(e)),
    length: { seconds: numberOf('seconds', values.seconds, 1, 600, true), rounds },
    quiet: {
      maxWaitMinutes: numberOf('max-wait-minutes', values['max-wait-minutes'], 0, 24 * 60, false),
      retries: numberOf('retries', values.retries, 0, 5, true),
      maxDisturbedShare: numberOf('max-disturbed', values['max-disturbed'], 0, 100, false) / 100,
      allowBusy: values['allow-busy'],
    },
    docOnly: values.doc,
    help: values.help,
  }
}
