// Stacks.up takes in a stack's env only what the stack declares, natively as under Docker, each of
// its type, before anything starts: the exploit of a native stack's NODE_OPTIONS runs nothing.
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadManifest } from './manifest.ts'
import { Stacks } from './stacks.ts'
import { stackVariables } from './variables.ts'

describe("a stack's env at Stacks.up", () => {
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-stack-env-'))
  const stacks = new Stacks({ stateDir: join(dir, 'native-stacks') })

  it('declares natively the app settings only, and under Docker the limits and JVM flags too', () => {
    const m = loadManifest()
    for (const s of m.stacks) {
      const native = stackVariables(s, true)
      expect(native, s.name).toEqual(expect.arrayContaining(Object.keys(s.native.env)))
      expect(
        native.filter((v) => v.startsWith('CANNONADE_') || v === 'JAVA_OPTS'),
        s.name,
      ).toEqual([])
      expect(stackVariables(s, false), s.name).toEqual(
        expect.arrayContaining(['CANNONADE_APP_CPUS', 'POOL_SIZE']),
      )
    }
    expect(
      stackVariables(
        m.stacks.find((s) => s.name === 'java-jetty')!,
        false,
      ),
    ).toContain('JAVA_OPTS')
  })

  it('refuses NODE_OPTIONS on a native stack before starting it: the code it names never runs', async () => {
    const marker = join(dir, 'pwned')
    const code = `--import=data:text/javascript,import('node:fs').then(f=>f.writeFileSync(${JSON.stringify(marker)},'x'))`
    for (const native of [true, false]) {
      await expect(stacks.up('node-http', { native, env: { NODE_OPTIONS: code } })).rejects.toMatchObject({
        code: 'bad-input',
        field: 'env',
        message: expect.stringMatching(/^stack node-http does not read NODE_OPTIONS/),
      })
    }
    expect(existsSync(marker)).toBe(false)
  })

  it('refuses what a stack reads only in a container natively, and values not of their type', async () => {
    const cases: [Record<string, string>, boolean, RegExp][] = [
      [{ CANNONADE_APP_CPUS: '0.5' }, true, /does not read CANNONADE_APP_CPUS natively/],
      [{ JAVA_OPTS: '-Xmx1g' }, true, /does not read JAVA_OPTS natively/],
      [{ WORKERS: '2' }, false, /does not read WORKERS/],
      [{ POOL_SIZE: '$(id)' }, true, /POOL_SIZE must be a whole number/],
      [{ POOL_SIZE: '-1' }, false, /POOL_SIZE must be a whole number/],
      [{ CANNONADE_APP_MEM: 'lots' }, false, /CANNONADE_APP_MEM must be a memory size/],
    ]
    for (const [env, native, message] of cases) {
      await expect(stacks.up('node-http', { native, env }), JSON.stringify(env)).rejects.toMatchObject({
        code: 'bad-input',
        message: expect.stringMatching(message),
      })
    }
    await expect(
      stacks.up('java-jetty', { env: { JAVA_OPTS: '-XX:OnOutOfMemoryError=touch /tmp/x' } }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/JAVA_OPTS takes only/) })
  })
})
