// A target's `secrets`: `${name}` in its steps whose value never stands in the config (a cookie or
// token that `cannonade import` left out) but is read from a CANNONADE_SECRET_… environment variable
// when a run starts. The config is stored and shown with the `${name}`; only the copy the runner
// gets has the values written in (engine/runner/supervisor.ts), so no database, export or report
// ever holds them.
import { ConfigError } from './errors.ts'
import { SECRET_ENV_PREFIX } from './schema-fields.ts'
import type { RunConfig, Step } from './schema-stored.ts'
import { fieldValueProblem, pathProblem } from './wire.ts'

/** Where a run's secret values come from: the engine's secrets by name, then its environment. */
export type SecretLookup = (envName: string) => string | undefined

/** The environment variable an import names for a secret variable: CANNONADE_SECRET_COOKIE for `cookie`. */
export function secretEnvName(variable: string): string {
  return SECRET_ENV_PREFIX + variable.toUpperCase().replace(/[^A-Z0-9_]/g, '_')
}

/** `(secrets, env)`: the engine's own secrets first, then its environment (as the monitors read theirs). */
export function secretLookup(
  secrets: Readonly<Record<string, string>> | undefined,
  env: NodeJS.ProcessEnv = process.env,
): SecretLookup {
  return (name) => secrets?.[name] ?? env[name]
}

type Issue = { field: string; message: string }

/** Why `value` cannot stand where `step` uses `${name}`, or null. */
function valueProblem(value: string, name: string, step: Step): string | null {
  if (value.includes('${')) return 'holds "${", which would read as a variable'
  const use = '${' + name + '}'
  for (const header of Object.values(step.headers))
    if (header.includes(use)) {
      const problem = fieldValueProblem(value)
      if (problem) return `${problem} (step "${step.name}" sends it in a header)`
    }
  if (step.path.includes(use)) {
    const problem = pathProblem(value)
    if (problem) return `${problem} (step "${step.name}" sends it in its path)`
  }
  return null
}

const fill = (text: string, values: Readonly<Record<string, string>>) =>
  text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => values[name] ?? whole)

/**
 * The config the runner gets: every target's secret variables written into its steps. Throws a
 * ConfigError naming each secret that is not set or cannot stand where it is used; the message
 * names the variable, never its value.
 */
export function resolveSecrets(config: RunConfig, lookup: SecretLookup): RunConfig {
  if (!config.targets.some((t) => t.secrets && Object.keys(t.secrets).length > 0)) return config
  const issues: Issue[] = []
  const targets = config.targets.map((target, i) => {
    const values: Record<string, string> = {}
    for (const [name, env] of Object.entries(target.secrets ?? {})) {
      const field = `targets.${i}.secrets.${name}`
      const value = lookup(env)
      if (value === undefined || value === '') {
        issues.push({
          field,
          message: `${env} is not set: give the value of \${${name}} in that environment variable (of the shell that runs cannonade, or of cannonade serve), or write it in the steps instead of \${${name}}`,
        })
        continue
      }
      const problem = target.steps?.map((s) => valueProblem(value, name, s)).find((p) => p !== null)
      if (problem) issues.push({ field, message: `${env} ${problem}` })
      else values[name] = value
    }
    if (!target.steps || Object.keys(values).length === 0) return target
    const steps = target.steps.map((s) => ({
      ...s,
      path: fill(s.path, values),
      headers: Object.fromEntries(Object.entries(s.headers).map(([k, v]) => [k, fill(v, values)])),
      body: s.body === null ? null : fill(s.body, values),
    }))
    return { ...target, steps }
  })
  if (issues.length) throw new ConfigError(issues)
  return { ...config, targets }
}

/** The CANNONADE_SECRET_… variables of `env`: what a local load agent needs to run the same steps. */
export function secretEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && name.startsWith(SECRET_ENV_PREFIX)) out[name] = value
  return out
}
