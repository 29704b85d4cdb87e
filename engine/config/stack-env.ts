// The variables a bundled stack declares (targets/<stack>/compose.yaml reads them; the native
// servers read the same names): a target's `stack.env` may set these and nothing else, each value
// of its declared type. Configs and templates are shared as data and `runs:start` takes the same
// input, so a variable a process reads as code (NODE_OPTIONS, LD_PRELOAD, PATH, JAVA_TOOL_OPTIONS,
// _JAVA_OPTIONS, JDK_JAVA_OPTIONS, DYLD_*…) never comes from a config: it is not declared, and
// engine/stacks/native.ts builds a native server's environment from an allowlist plus these.

/** One declared variable: what its value must be, and the words of the message when it is not. */
export type StackVar = { test: (v: string) => boolean; type: string }

const int = (min: number, max: number): StackVar => ({
  test: (v) => /^\d{1,9}$/.test(v) && Number(v) >= min && Number(v) <= max,
  type: `a whole number from ${min} to ${max}`,
})

/** docker compose's `cpus`: a positive decimal. */
const CPUS: StackVar = {
  test: (v) => /^\d{1,3}(\.\d{1,3})?$/.test(v) && Number(v) > 0,
  type: 'a number of CPUs like 1 or 0.5',
}
/** docker compose's memory limit: digits and a unit. */
const MEMORY: StackVar = {
  test: (v) => /^\d{1,6}(\.\d{1,3})?[bkmgBKMG]?$/.test(v),
  type: 'a memory size like 512m or 1g',
}
/** The next service of a chain: http(s) only, no credentials. */
const CHAIN_URL: StackVar = {
  test: (v) => {
    // Empty: unset, the server itself (compose passes `${CHAIN_URL:-}`, and a running stack's snapshot reads it back so).
    if (v === '') return true
    if (v.length > 2000) return false
    try {
      const u = new URL(v)
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.username === '' && u.password === ''
    } catch {
      return false
    }
  },
  type: 'an http(s) URL without credentials',
}
/**
 * The JVM's heap and collector flags only: JAVA_OPTS also takes -javaagent, -XX:OnOutOfMemoryError
 * and -D properties a JVM acts on, which would let a config run code.
 */
const JVM_FLAG =
  /^(-Xm[sx]\d{1,6}[kmgKMG]?|-Xss\d{1,6}[kmKM]?|-XX:[+-]Use[A-Za-z0-9]{1,40}|-XX:(MaxRAMPercentage|InitialRAMPercentage|MinRAMPercentage)=\d{1,2}(\.\d)?|-XX:(ActiveProcessorCount|ParallelGCThreads|ConcGCThreads)=\d{1,4})$/
const JAVA_OPTS: StackVar = {
  test: (v) =>
    v.length <= 500 &&
    v.trim() !== '' &&
    v
      .trim()
      .split(/ +/)
      .every((f) => JVM_FLAG.test(f)),
  type: 'JVM heap and collector flags like -Xmx512m -XX:+UseG1GC -XX:MaxRAMPercentage=75',
}

const COMMON: Record<string, StackVar> = {
  POOL_SIZE: int(0, 1000), // 0: pooling off
  HASH_ITERATIONS: int(0, 10_000_000),
  CHAIN_DEPTH: int(0, 16),
  CHAIN_URL,
  CANNONADE_APP_CPUS: CPUS,
  CANNONADE_APP_MEM: MEMORY,
  CANNONADE_DB_CPUS: CPUS,
  CANNONADE_DB_MEM: MEMORY,
  CANNONADE_LB_CPUS: CPUS,
  CANNONADE_LB_MEM: MEMORY,
}
/** A switch: `on` or `off`. */
const ON_OFF: StackVar = { test: (v) => v === 'on' || v === 'off', type: 'on or off' }
/**
 * What a stack serves besides HTTP/1.1 (targets/README.md, "HTTP/2 and TLS"): HTTP2=on adds h2c by
 * prior knowledge on its port (and h2 by ALPN over TLS), TLS=on HTTPS on its TLS port.
 */
const PROTOCOLS: Record<string, StackVar> = { HTTP2: ON_OFF, TLS: ON_OFF }
const JAVA: Record<string, StackVar> = {
  ...COMMON,
  ...PROTOCOLS,
  THREADS: int(1, 10_000),
  SPLIT_THREADS: int(1, 1000),
  JAVA_OPTS,
}

/** Per bundled stack, the variables it declares (kept equal to its compose files by a test). */
export const STACK_ENV: Readonly<Record<string, Readonly<Record<string, StackVar>>>> = {
  'node-http': { ...COMMON, ...PROTOCOLS },
  'node-cluster': { ...COMMON, WORKERS: int(1, 256) },
  'java-jetty': JAVA,
  'java-tomcat': JAVA,
}

/**
 * What is wrong with a stack's env, one message per variable (empty: nothing). A stack this
 * table does not know declares nothing: its env must be empty (the stack's name is checked
 * where stacks are started, with the list of known ones).
 */
export function stackEnvIssues(
  stack: string,
  env: Readonly<Record<string, string | number>>,
): { key: string; message: string }[] {
  const declared = Object.hasOwn(STACK_ENV, stack) ? STACK_ENV[stack]! : {}
  const names = Object.keys(declared)
  const issues: { key: string; message: string }[] = []
  for (const [key, raw] of Object.entries(env)) {
    const v = Object.hasOwn(declared, key) ? declared[key] : undefined
    if (!v) {
      issues.push({
        key,
        message: `stack ${stack} does not declare ${key}; it reads ${names.join(', ') || 'no variables'}`,
      })
    } else if (!v.test(String(raw))) {
      issues.push({ key, message: `${key} must be ${v.type}` })
    }
  }
  return issues
}

/** Throws with every issue of a stack's env (for callers outside a schema: the native launcher). */
export function assertStackEnv(stack: string, env: Readonly<Record<string, string | number>>): void {
  const issues = stackEnvIssues(stack, env)
  if (issues.length > 0) throw new Error(`stack.env: ${issues.map((i) => i.message).join('; ')}`)
}
