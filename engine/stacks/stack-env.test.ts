// A stack's env takes only the variables that stack declares, each of its declared type, for
// native and Docker stacks alike: nothing a config (a shared template, `runs:start`) says reaches
// a server's NODE_OPTIONS, LD_PRELOAD, PATH, JAVA_TOOL_OPTIONS or the like.
import { spawn, spawnSync } from 'node:child_process'
import type * as ChildProcessModule from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { ConfigError } from '../config/errors.ts'
import { parseRunConfig } from '../config/load.ts'
import { STACK_ENV } from '../config/stack-env.ts'
import { composeVariables } from './compose-project.ts'
import { getStack, loadManifest } from './manifest.ts'
import { spawnServer } from './native.ts'

// Every process this file's code starts, counted (the launcher's own spawn among them).
vi.mock('node:child_process', async (actual) => {
  const real = await actual<typeof ChildProcessModule>()
  return { ...real, spawn: vi.fn(real.spawn) }
})

/** Variables a process reads as code or as where to find code: none may come from a config. */
export const FORBIDDEN_VARS = [
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_EXTRA_CA_CERTS',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'DYLD_INSERT_LIBRARIES',
  'DYLD_LIBRARY_PATH',
  'DYLD_FRAMEWORK_PATH',
  'PATH',
  'HOME',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'JAVA_HOME',
  'CLASSPATH',
  'MAVEN_OPTS',
  'BASH_ENV',
  'ENV',
  'PYTHONPATH',
  'PERL5OPT',
  'PGPASSWORD',
  'HOST',
  'PORT',
  'DATABASE_URL',
  'pool_size',
  '',
] as const
export const FORBIDDEN_MIN = 25

/** A declared variable with a value outside its type. */
export const BAD_VALUES: [stack: string, key: string, value: string | number][] = [
  ['node-http', 'POOL_SIZE', 'x'],
  ['node-http', 'POOL_SIZE', -1],
  ['node-http', 'POOL_SIZE', 1001],
  ['node-http', 'POOL_SIZE', 1.5],
  ['node-http', 'POOL_SIZE', 1e9],
  ['node-http', 'POOL_SIZE', '10; touch /tmp/x'],
  ['node-http', 'POOL_SIZE', '10\n'],
  ['node-http', 'HASH_ITERATIONS', ''],
  ['node-http', 'CHAIN_DEPTH', 99],
  ['node-http', 'CHAIN_URL', 'file:///etc/passwd'],
  ['node-http', 'CHAIN_URL', 'http://user:secret@127.0.0.1:1/'],
  ['node-http', 'CHAIN_URL', 'javascript:alert(1)'],
  ['node-http', 'CANNONADE_APP_CPUS', '0'],
  ['node-http', 'CANNONADE_APP_MEM', '1g; rm -rf /'],
  ['node-cluster', 'WORKERS', 1000],
  ['java-jetty', 'THREADS', 'many'],
  ['java-jetty', 'JAVA_OPTS', '-javaagent:/tmp/evil.jar'],
  ['java-jetty', 'JAVA_OPTS', '-XX:OnOutOfMemoryError=sh -c id'],
  ['java-tomcat', 'JAVA_OPTS', '-Xmx512m -Djava.security.manager=allow'],
  ['java-tomcat', 'JAVA_OPTS', '-XX:+UseG1GC -agentpath:/tmp/x.so'],
]
export const BAD_VALUES_MIN = 20

const config = (stack: Record<string, unknown>) => ({
  version: 1,
  name: 'env',
  targets: [{ name: 't', url: 'http://127.0.0.1:1/', stack }],
  load: { connections: 1, duration: 1 },
})

function fieldsOf(raw: unknown): string[] {
  try {
    parseRunConfig(raw)
  } catch (e) {
    if (e instanceof ConfigError) return e.issues.map((i) => i.field)
    throw e
  }
  return []
}

describe("a stack's env", () => {
  const stacks = Object.keys(STACK_ENV)

  it('declares exactly the variables its compose files read', () => {
    for (const s of loadManifest().stacks) {
      expect(Object.keys(STACK_ENV[s.name] ?? {}).sort(), s.name).toEqual(composeVariables(s))
    }
  })

  it('refuses every undeclared variable, native or Docker, naming the field', () => {
    let tried = 0
    for (const name of stacks) {
      for (const native of [true, false]) {
        for (const key of FORBIDDEN_VARS) {
          const fields = fieldsOf(config({ name, native, env: { [key]: '--import=data:text/javascript,1' } }))
          expect(fields, `${name} ${native} ${key}`).toContain(`targets.0.stack.env.${key}`)
          tried++
        }
      }
    }
    console.log(`hostile cases tried: ${tried} (undeclared variables)`)
    expect(FORBIDDEN_VARS.length).toBeGreaterThanOrEqual(FORBIDDEN_MIN)
    expect(tried).toBeGreaterThanOrEqual(FORBIDDEN_MIN * stacks.length * 2)
  })

  it('checks each declared value against its type, and accepts good ones', () => {
    for (const [name, key, value] of BAD_VALUES) {
      for (const native of [true, false]) {
        expect(fieldsOf(config({ name, native, env: { [key]: value } })), `${name} ${key}=${value}`).toEqual([
          `targets.0.stack.env.${key}`,
        ])
      }
    }
    console.log(`hostile cases tried: ${BAD_VALUES.length * 2} (declared variables, bad values)`)
    expect(BAD_VALUES.length).toBeGreaterThanOrEqual(BAD_VALUES_MIN)
    const good = [
      ['node-http', { POOL_SIZE: 10, HASH_ITERATIONS: '1000', CHAIN_DEPTH: 0, CANNONADE_APP_MEM: '512m' }],
      ['node-cluster', { WORKERS: 4, CHAIN_URL: 'http://127.0.0.1:8083/' }],
      ['java-jetty', { THREADS: 200, JAVA_OPTS: '-XX:MaxRAMPercentage=75' }],
      ['java-tomcat', { JAVA_OPTS: '-Xmx512m -XX:+UseG1GC', CANNONADE_APP_CPUS: '0.5' }],
    ] as const
    for (const [name, env] of good) expect(fieldsOf(config({ name, env })), name).toEqual([])
  })

  it('refuses a stack name outside the grammar of bundled stacks', () => {
    for (const name of ['', '.', '..', '../x', 'Node-HTTP', 'a b', 'x\u0000', 'é']) {
      expect(fieldsOf(config({ name })), JSON.stringify(name)).toEqual(['targets.0.stack.name'])
    }
  })
})

describe('the native launcher', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-stack-env-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('refuses NODE_OPTIONS (code in a data: URL) before starting anything, and no file is written', async () => {
    const marker = join(dir, 'ran')
    const code = `import{writeFileSync}from'node:fs';writeFileSync(${JSON.stringify(marker)},'x')`
    const env = { NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(code)}` }
    // The payload works: a node started with this env writes the marker before it exits.
    const control = spawnSync(process.execPath, ['-e', ''], { env: { ...process.env, ...env } })
    expect(control.status, String(control.stderr)).toBe(0)
    expect(existsSync(marker)).toBe(true)
    rmSync(marker)

    expect(fieldsOf(config({ name: 'node-http', native: true, env }))).toEqual([
      'targets.0.stack.env.NODE_OPTIONS',
    ])
    const spawned = vi.mocked(spawn).mock.calls.length
    await expect(
      spawnServer(getStack('node-http'), { databaseUrl: 'postgres://u@127.0.0.1:1/db', env }),
    ).rejects.toThrow(/does not declare NODE_OPTIONS/)
    // Refused before any process was started: none that could write the marker later.
    expect(vi.mocked(spawn).mock.calls.length).toBe(spawned)
    expect(existsSync(marker)).toBe(false)
  })
})
