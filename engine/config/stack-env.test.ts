// A stack's env in a config (or a template, or runs:start: all parsed by the same schema) takes only
// the stacks' declared settings, each of its type; nothing that changes how a runtime starts.
import { describe, expect, it } from 'vitest'
import { configIssues } from '../testing/config.ts'
import { STACK_VARIABLES } from './stack-env.ts'

const withEnv = (env: Record<string, unknown>) => ({
  version: 1,
  name: 'env',
  targets: [{ name: 't', url: 'http://127.0.0.1:1/', stack: { name: 'node-http', native: true, env } }],
  load: { connections: 1, duration: 1 },
})

const CODE = `--import=data:text/javascript,require('fs').writeFileSync('/tmp/pwned','x')`
/** Variables that would run code, or move what the launcher sets, with the values of an attack. */
export const REFUSED_NAMES: readonly [string, string][] = [
  ['NODE_OPTIONS', CODE],
  ['NODE_PATH', '/tmp'],
  ['NODE_EXTRA_CA_CERTS', '/tmp/ca.pem'],
  ['LD_PRELOAD', '/tmp/evil.so'],
  ['LD_LIBRARY_PATH', '/tmp'],
  ['DYLD_INSERT_LIBRARIES', '/tmp/evil.dylib'],
  ['PATH', '/tmp/bin'],
  ['JAVA_TOOL_OPTIONS', '-javaagent:/tmp/a.jar'],
  ['_JAVA_OPTIONS', '-javaagent:/tmp/a.jar'],
  ['JDK_JAVA_OPTIONS', '-javaagent:/tmp/a.jar'],
  ['CLASSPATH', '/tmp'],
  ['JAVA_HOME', '/tmp/jdk'],
  ['BASH_ENV', '/tmp/x.sh'],
  ['ENV', '/tmp/x.sh'],
  ['SHELL', '/tmp/sh'],
  ['IFS', ' '],
  ['HOME', '/tmp'],
  ['PYTHONPATH', '/tmp'],
  ['PERL5OPT', '-Mx'],
  ['RUBYOPT', '-rx'],
  ['GCONV_PATH', '/tmp'],
  ['GLIBC_TUNABLES', 'glibc.malloc.x=1'],
  ['MALLOC_CONF', 'x'],
  ['PORT', '1'],
  ['HOST', '0.0.0.0'],
  ['DATABASE_URL', 'postgres://evil@host/db'],
  ['PGPASSWORD', 'secret'],
  ['CANNONADE_PORT', '1'],
  ['CANNONADE_REPLICAS', '9'],
  ['UNKNOWN_SETTING', '1'],
  ['pool_size', '1'],
  ['', '1'],
  ['A'.repeat(10_000), '1'],
  ['POOL SIZE', '1'],
  ['POOL_SIZE\n', '1'],
]

/** Declared variables with values not of their type. */
export const REFUSED_VALUES: readonly [string, unknown][] = [
  ['POOL_SIZE', -1],
  ['POOL_SIZE', 1001],
  ['POOL_SIZE', '10; rm -rf /'],
  ['POOL_SIZE', '1e3'],
  ['POOL_SIZE', ''],
  ['POOL_SIZE', 1.5],
  ['HASH_ITERATIONS', 0],
  ['HASH_ITERATIONS', '99999999999999'],
  ['WORKERS', 0],
  ['WORKERS', '$(id)'],
  ['THREADS', 'many'],
  ['SPLIT_THREADS', 65],
  ['CHAIN_DEPTH', 17],
  ['CHAIN_URL', 'file:///etc/passwd'],
  ['CHAIN_URL', 'http://h/path'],
  ['CHAIN_URL', 'http://h:1 --x'],
  ['JAVA_OPTS', '-javaagent:/tmp/a.jar'],
  ['JAVA_OPTS', '-XX:OnOutOfMemoryError=touch /tmp/x'],
  ['JAVA_OPTS', '-XX:OnError=sh'],
  ['JAVA_OPTS', '-Xmx1g -agentpath:/tmp/x.so'],
  ['JAVA_OPTS', '-Djava.class.path=/tmp'],
  ['JAVA_OPTS', '-XX:Flags=/tmp/flags'],
  ['JAVA_OPTS', '@/tmp/argfile'],
  ['JAVA_OPTS', '-cp /tmp'],
  ['CANNONADE_APP_CPUS', 0],
  ['CANNONADE_APP_CPUS', '2000'],
  ['CANNONADE_APP_CPUS', 'all'],
  ['CANNONADE_APP_MEM', '512 m'],
  ['CANNONADE_APP_MEM', '-1g'],
  ['CANNONADE_DB_MEM', 'lots'],
]

describe("a stack's env in a config", () => {
  it('refuses every variable that is no declared setting, naming it', () => {
    for (const [name, value] of REFUSED_NAMES) {
      const issues = configIssues(withEnv({ [name]: value }))
      expect(issues, name).toHaveLength(1)
      expect(issues[0], name).toMatch(/^targets\.0\.stack\.env/)
    }
    console.log(`hostile cases tried: ${REFUSED_NAMES.length} names`)
  })

  it('refuses a declared variable whose value is not of its type, naming both', () => {
    for (const [name, value] of REFUSED_VALUES) {
      const issues = configIssues(withEnv({ [name]: value }))
      expect(issues, `${name}=${String(value)}`).toHaveLength(1)
      expect(issues[0]).toContain(`targets.0.stack.env.${name}: ${name} `)
    }
    console.log(`hostile cases tried: ${REFUSED_VALUES.length} values`)
  })

  it('takes every declared setting at a value of its type', () => {
    const good: Record<string, string | number> = {
      POOL_SIZE: 0,
      HASH_ITERATIONS: '1000',
      WORKERS: 4,
      THREADS: 200,
      SPLIT_THREADS: 2,
      CHAIN_DEPTH: 16,
      CHAIN_URL: 'http://127.0.0.1:8080',
      JAVA_OPTS: '-XX:MaxRAMPercentage=75 -Xmx512m -XX:+UseG1GC -Xss512k',
      CANNONADE_APP_CPUS: 0.5,
      CANNONADE_APP_MEM: '512m',
      CANNONADE_DB_CPUS: '1.0',
      CANNONADE_DB_MEM: '1g',
      CANNONADE_LB_CPUS: 2,
      CANNONADE_LB_MEM: '128m',
    }
    expect(Object.keys(good).sort()).toEqual(Object.keys(STACK_VARIABLES).sort())
    expect(configIssues(withEnv(good))).toEqual([])
  })
})
