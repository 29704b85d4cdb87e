// What a config (or the Api, or a template: all shared as data) may put in a bundled stack's
// environment: the settings the stacks declare (targets/README.md, "Settings"), each with its type.
// A variable that changes how a runtime starts (NODE_OPTIONS, LD_PRELOAD, PATH, JAVA_TOOL_OPTIONS…)
// would run code a config names, so none reaches a process from here; JAVA_OPTS takes only
// heap, stack and on/off or numeric -XX flags (no -XX:OnError=command, no -javaagent).
// Which variables a given stack reads is the stacks' business (engine/stacks/variables.ts).

/** A variable's type: a message naming what is wrong with `value`, or null when it fits. */
type Check = (value: string) => string | null

const integer =
  (min: number, max: number): Check =>
  (v) =>
    /^\d{1,12}$/.test(v) && Number(v) >= min && Number(v) <= max
      ? null
      : `must be a whole number from ${min} to ${max}`
const cpus: Check = (v) =>
  /^\d{1,4}(\.\d{1,3})?$/.test(v) && Number(v) > 0 && Number(v) <= 1024
    ? null
    : 'must be a number of CPUs (e.g. 0.5, 2)'
const memory: Check = (v) =>
  /^\d{1,7}[kmgKMG]?$/.test(v) ? null : 'must be a memory size such as 512m or 2g'
const chainUrl: Check = (v) =>
  v === '' || /^http:\/\/[A-Za-z0-9.-]{1,253}(:\d{1,5})?\/?$/.test(v)
    ? null
    : 'must be http://host:port (no path)'
const JVM_FLAG =
  /^(-Xm[sx]\d{1,7}[kmgKMG]?|-Xss\d{1,7}[kmKM]?|-XX:[+-][A-Za-z][A-Za-z0-9]{0,80}|-XX:[A-Za-z][A-Za-z0-9]{0,80}=\d{1,12}(\.\d{1,3})?[kmgKMG%]?)$/
const jvmFlags: Check = (v) =>
  v.length <= 1000 && v.split(/\s+/).every((f) => f === '' || JVM_FLAG.test(f))
    ? null
    : 'takes only -Xms/-Xmx/-Xss sizes and -XX flags that are on/off or numbers (no commands, agents or files)'

/** Every variable a bundled stack reads from its environment, and its type. */
export const STACK_VARIABLES: Readonly<Record<string, Check>> = {
  POOL_SIZE: integer(0, 1000),
  HASH_ITERATIONS: integer(1, 10_000_000),
  WORKERS: integer(1, 256),
  THREADS: integer(1, 100_000),
  SPLIT_THREADS: integer(1, 64),
  CHAIN_DEPTH: integer(0, 16),
  CHAIN_URL: chainUrl,
  JAVA_OPTS: jvmFlags,
  CANNONADE_APP_CPUS: cpus,
  CANNONADE_APP_MEM: memory,
  CANNONADE_DB_CPUS: cpus,
  CANNONADE_DB_MEM: memory,
  CANNONADE_LB_CPUS: cpus,
  CANNONADE_LB_MEM: memory,
}

/** Variables no config may set, whatever a stack declares: they change how a runtime or a shell starts. */
const NEVER =
  /^(PATH|LD_.*|DYLD_.*|NODE_.*|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|CLASSPATH|JAVA_HOME|BASH_ENV|ENV|SHELL|IFS|HOME|PYTHON.*|PERL5.*|RUBYOPT|GCONV_PATH|MALLOC_.*|GLIBC_TUNABLES|PORT|HOST|DATABASE_URL|PG.*|CANNONADE_PORT|CANNONADE_REPLICAS|CANNONADE_LB_PORT)$/

/** Why `name=value` may not be in a stack's env (null: it may, as far as its type goes). */
export function stackVariableProblem(name: string, value: string): string | null {
  if (NEVER.test(name))
    return `${name} is never passed to a stack: it changes how a program starts, or the launcher sets it`
  const check = STACK_VARIABLES[name]
  if (!check)
    return `${name} is not a setting of the bundled stacks (they read ${Object.keys(STACK_VARIABLES).join(', ')})`
  const problem = check(value)
  return problem
    ? `${name} ${problem}, got ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)}`
    : null
}
