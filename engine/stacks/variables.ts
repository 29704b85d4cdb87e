// The settings a stack takes in its env, for native and Docker stacks alike: only the variables it
// declares (what its compose files read; natively, the app's own settings, not the containers'
// limits or JVM flags), each value of its declared type (engine/config/stack-env.ts). Checked by
// Stacks.up before anything starts, whatever asked: the CLI, a run's config, a study, the Api.
import { ApiError } from '../api/errors.ts'
import { stackVariableProblem } from '../config/stack-env.ts'
import { composeVariables } from './compose-project.ts'
import type { StackSpec } from './manifest.ts'

/** What only a container reads: its limits and the JVM's flags in the image's command. */
const CONTAINER_ONLY = /^(CANNONADE_.*|JAVA_OPTS)$/

/** The variables `s` reads, natively or under Docker. */
export function stackVariables(s: StackSpec, native: boolean): string[] {
  const compose = composeVariables(s)
  if (!native) return compose
  return [
    ...new Set([...Object.keys(s.native.env), ...compose.filter((v) => !CONTAINER_ONLY.test(v))]),
  ].sort()
}

/** Refuses a variable the stack does not declare, or a value not of its type, naming it. */
export function checkStackEnv(s: StackSpec, env: Record<string, string>, native: boolean): void {
  const known = stackVariables(s, native)
  const unknown = Object.keys(env).filter((k) => !known.includes(k))
  if (unknown.length > 0) {
    const how = native ? ' natively' : ''
    throw new ApiError(
      'bad-input',
      `stack ${s.name} does not read ${unknown.join(', ')}${how}; it reads ${known.join(', ')}`,
      'env',
    )
  }
  for (const [k, v] of Object.entries(env)) {
    const problem = stackVariableProblem(k, v)
    if (problem) throw new ApiError('bad-input', `stack ${s.name}: ${problem}`, 'env')
  }
}
