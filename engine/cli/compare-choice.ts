// The comparison a user chooses on the command line, shared by `cannonade compare` and
// `cannonade report` (DESIGN.md: `--baseline RUN:TARGET`, `--pair A=B`, `--min-effect PCT`), so
// both commands read the same flags the same way and name a bad one the same way (exit 2).
import type { EngineHost } from '../host/index.ts'
import { UsageError } from './args.ts'
import { parseRunId } from './common.ts'

export const COMPARE_CHOICE_FLAGS = {
  baseline: {
    type: 'string',
    value: 'RUN:TARGET',
    help: 'within a run: the target the others are held against; across runs: the baseline run (default: the first)',
  },
  pair: {
    type: 'string',
    value: 'A=B[,C=D]',
    help: 'explicit pairs baseline=other, each RUN:TARGET or a TARGET name found in one run only',
  },
  'min-effect': {
    type: 'number',
    value: 'PCT',
    help: 'the smallest difference that matters, ± % (default 5): inside it is "the same"',
  },
} as const

interface Ref {
  runId: number
  target: string
}

/** "3:node-http", or "node-http" when exactly one compared run has a target of that name. */
function resolveRef(text: string, flag: string, targets: ReadonlyMap<number, readonly string[]>): Ref {
  const m = /^#?(\d+):(.+)$/.exec(text.trim())
  if (m) {
    const runId = parseRunId(m[1], flag)
    const target = m[2]!
    const names = targets.get(runId)
    if (!names) throw new UsageError(`${flag}: run ${runId} is not one of the compared runs`)
    if (!names.includes(target))
      throw new UsageError(`${flag}: run ${runId} has no target "${target}" (it has ${names.join(', ')})`)
    return { runId, target }
  }
  const name = text.trim()
  const runs = [...targets].filter(([, names]) => names.includes(name)).map(([id]) => id)
  if (runs.length === 1) return { runId: runs[0]!, target: name }
  if (runs.length === 0) throw new UsageError(`${flag}: no compared run has a target "${name}"`)
  throw new UsageError(`${flag}: "${name}" is in runs ${runs.join(' and ')}; write RUN:TARGET`)
}

function parsePairs(text: string, targets: ReadonlyMap<number, readonly string[]>) {
  return text.split(',').map((part, i) => {
    const [a, b, ...rest] = part.split('=')
    if (!a?.trim() || !b?.trim() || rest.length)
      throw new UsageError(`--pair: "${part}" is not BASELINE=OTHER (pair ${i + 1})`)
    return { baseline: resolveRef(a, '--pair', targets), other: resolveRef(b, '--pair', targets) }
  })
}

export interface ChoiceFlags {
  baseline?: string
  pair?: string
  'min-effect'?: number
}

/** The margin alone, checked before any database is opened. */
export function checkMinEffect(minEffect: number | undefined): void {
  if (minEffect !== undefined && !(minEffect > 0 && minEffect <= 100))
    throw new UsageError(`--min-effect must be a percentage above 0 and at most 100, got ${minEffect}`)
}

/** The flags as compare options, their runs and targets checked against the runs' own. */
export async function compareChoice(host: EngineHost, ids: readonly number[], flags: ChoiceFlags) {
  const minEffect = flags['min-effect']
  checkMinEffect(minEffect)
  const targets = new Map<number, string[]>()
  for (const id of ids) {
    const run = await host.runs.get(id)
    targets.set(id, [...new Set(run.results.map((r) => r.target))])
  }
  return {
    ...(flags.baseline !== undefined ? { baseline: resolveRef(flags.baseline, '--baseline', targets) } : {}),
    ...(flags.pair !== undefined ? { pairs: parsePairs(flags.pair, targets) } : {}),
    ...(minEffect !== undefined ? { minEffect } : {}),
  }
}
