// Sweeps: one study, one run per value of a numeric config path (connections 32/64/128/256, a
// stack's POOL_SIZE 10/30/60/90…), listed together, with the knee where throughput stops rising
// while latency climbs.
import { ConfigError } from '../config/errors.ts'
import { parseRunConfig } from '../config/load.ts'
import { STACK_ENV_PATH, type RunConfig } from '../config/schema.ts'
import type { RunHandle, RunHooks } from '../runner/supervisor.ts'
import { launchRun, type LaunchOptions } from '../agents/start.ts'
import type { Db } from '../store/db.ts'
import { addStudyRun, createStudy } from '../store/studies.ts'
import type { RunSummary } from '../api/types.ts'

/** A sweep of a stack's app instances behind its balancer: the stack is restarted at each count. */
const STACK_REPLICAS_PATH = /^targets\.(\d+)\.stack\.replicas$/

export interface SweepStep {
  value: number
  config: RunConfig
  /** Set when the swept path is a stack's environment or replicas: restart it with them first. */
  stack: {
    targetIndex: number
    name: string
    native: boolean
    env: Record<string, string | number>
    replicas: number
  } | null
}

function setPath(doc: Record<string, unknown>, path: string, value: number): boolean {
  const keys = path.split('.')
  let node: unknown = doc
  for (const key of keys.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return false
    node = (node as Record<string, unknown>)[key]
  }
  const last = keys.at(-1)!
  if (node === null || typeof node !== 'object') return false
  const holder = node as Record<string, unknown>
  if (
    typeof holder[last] !== 'number' &&
    !(STACK_ENV_PATH.test(path) && (holder[last] === undefined || typeof holder[last] === 'string'))
  )
    return false
  holder[last] = value
  return true
}

/** Expand a config with `sweep` into one validated config per value (bad input names the field). */
export function expandSweep(config: RunConfig): SweepStep[] {
  const sweep = config.sweep
  if (!sweep) return [{ value: NaN, config, stack: null }]
  const envMatch = STACK_ENV_PATH.exec(sweep.path)
  const stackMatch = envMatch ?? STACK_REPLICAS_PATH.exec(sweep.path)
  if (stackMatch && !config.targets[Number(stackMatch[1])]?.stack) {
    throw new ConfigError([
      { field: 'sweep.path', message: `targets.${stackMatch[1]} has no stack to restart` },
    ])
  }
  return sweep.values.map((value, i) => {
    const doc = structuredClone(config) as unknown as Record<string, unknown>
    delete doc.sweep
    if (envMatch) {
      const t = (doc.targets as Record<string, unknown>[])[Number(envMatch[1])]!
      const stack = t.stack as { env: Record<string, unknown> }
      stack.env = { ...stack.env, [envMatch[2]!]: value }
    } else if (!setPath(doc, sweep.path, value)) {
      throw new ConfigError([
        { field: 'sweep.path', message: `"${sweep.path}" is not a number in this config` },
      ])
    }
    doc.name = `${config.name} [${sweep.path.split('.').at(-1)}=${value}]`
    let parsed: RunConfig
    try {
      parsed = parseRunConfig(doc)
    } catch (err) {
      if (err instanceof ConfigError) {
        throw new ConfigError(
          err.issues.map((x) => ({
            field: `sweep.values.${i}`,
            message: `${value} makes ${x.field || 'the config'} invalid: ${x.message}`,
          })),
        )
      }
      throw err
    }
    const st = stackMatch ? parsed.targets[Number(stackMatch[1])]!.stack! : null
    return {
      value,
      config: parsed,
      stack:
        st && stackMatch
          ? {
              targetIndex: Number(stackMatch[1]),
              name: st.name,
              native: st.native,
              env: st.env,
              replicas: st.replicas,
            }
          : null,
    }
  })
}

export interface StudyHooks extends RunHooks {
  onRunStart?(info: { index: number; value: number; runId: number; studyId: number; handle: RunHandle }): void
  /** Restart a stack with new environment values before a run (the stacks launcher provides it). */
  restartStack?(stack: NonNullable<SweepStep['stack']>): Promise<void>
}

export interface StudyResult {
  studyId: number
  runs: { value: number; summary: RunSummary }[]
}

export async function runStudy(
  db: Db,
  dbPath: string,
  config: RunConfig,
  hooks: StudyHooks = {},
  opts: LaunchOptions = {},
): Promise<StudyResult> {
  const steps = expandSweep(config)
  const sweep = config.sweep!
  if (steps.some((s) => s.stack) && !hooks.restartStack) {
    throw new ConfigError([
      {
        field: 'sweep.path',
        message: "sweeping a stack's environment needs the stacks launcher (cannonade stacks)",
      },
    ])
  }
  // The study is recorded once its first run has started: a refused start leaves nothing behind.
  let studyId: number | null = null
  const runs: StudyResult['runs'] = []
  for (const [index, step] of steps.entries()) {
    if (step.stack) await hooks.restartStack!(step.stack)
    const handle = await launchRun(db, dbPath, step.config, hooks, opts)
    studyId ??= createStudy(db, { name: config.name, path: sweep.path, values: sweep.values })
    addStudyRun(db, studyId, handle.runId, step.value)
    hooks.onRunStart?.({ index, value: step.value, runId: handle.runId, studyId, handle })
    const summary = await handle.done
    runs.push({ value: step.value, summary })
    if (summary.status !== 'done') break
    if (index < steps.length - 1 && config.cooldownSeconds > 0)
      await new Promise((r) => setTimeout(r, config.cooldownSeconds * 1000))
  }
  return {
    studyId: studyId ?? createStudy(db, { name: config.name, path: sweep.path, values: sweep.values }),
    runs,
  }
}
