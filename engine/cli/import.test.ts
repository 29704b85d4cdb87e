// `cannonade import har|curl|openapi`: the config written (read back by the engine's own loader),
// its steps listed, the ways curl commands can be given, and bad input as exit 2 with a message
// naming what is wrong, without opening a database. `import json` is in runs.test.ts.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadRunConfigFile } from '../config/load.ts'
import { curlFixture } from '../import/fixtures/requests.ts'
import { runCommand } from '../testing/cli.ts'
import { CLI } from '../testing/process.ts'

const dir = mkdtempSync(join(tmpdir(), 'cannonade-import-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const DB = join(dir, 'never-opened.db')
const HAR = new URL('../../e2e/fixtures/web-mode.har', import.meta.url).pathname
const OPENAPI = new URL('../../targets/openapi.yaml', import.meta.url).pathname

const cli = (...argv: string[]) => runCommand(DB, argv)

describe('cannonade import har|curl|openapi', () => {
  it('import har --out writes a config the engine loads, and lists its steps', async () => {
    const out = join(dir, 'web.yaml')
    const r = await cli('import', 'har', HAR, '--out', out)
    expect(r.code, r.err).toBe(0)
    const config = loadRunConfigFile(out)
    const steps = config.targets[0]!.steps!
    expect(r.out).toMatch(new RegExp(`^wrote ${out}: 1 target, ${steps.length} steps\\n`))
    for (const s of steps) expect(r.out).toContain(`${s.method.padEnd(7)} ${s.path}`)
    expect(r.out).toMatch(/note: secret \$\{x_cannonade_token\} .* CANNONADE_SECRET_X_CANNONADE_TOKEN/)
    expect(r.out).toMatch(/note: left out \d+ static assets/)
    expect(readFileSync(out, 'utf8')).not.toContain('recorded-session-token')
    expect(existsSync(DB)).toBe(false)
  })

  it('import har --keep-static keeps the scripts, style sheets and icon', async () => {
    const all = await cli('import', 'har', HAR, '--keep-static')
    const some = await cli('import', 'har', HAR)
    expect(all.out).toMatch(/path: \/assets\/index-\w+\.js/)
    expect(some.out).not.toMatch(/\.js\n/)
    expect(all.out.length).toBeGreaterThan(some.out.length)
  })

  it('import curl prints the config of quoted commands, of a pasted block, and of one typed as words', async () => {
    const quoted = await cli(
      'import',
      'curl',
      'curl http://127.0.0.1:8080/a',
      "curl -d 'x=1' http://127.0.0.1:8080/b",
    )
    expect(quoted.code, quoted.err).toBe(0)
    expect(quoted.out).toMatch(/^# Imported from 2 curl texts by cannonade import\./)
    expect(quoted.out).toMatch(/path: \/a\n[\s\S]*method: POST\n\s+path: \/b\n/)
    const block = await cli('import', 'curl', curlFixture('chromium', 8080), '--name', 'shop')
    expect(block.out).toMatch(/\nname: shop\n/)
    expect(block.out.match(/- name: /g)).toHaveLength(4) // the target and its three steps
    const out = join(dir, 'words.yaml')
    const words = await cli(
      'import',
      'curl',
      '--out',
      out,
      'curl',
      '-X',
      'PUT',
      '-H',
      'X-A: 1',
      '--data-raw',
      '{}',
      'http://127.0.0.1:8080/c',
    )
    expect(words.code, words.err).toBe(0)
    expect(loadRunConfigFile(out).targets[0]!.steps![0]).toMatchObject({
      method: 'PUT',
      path: '/c',
      headers: { 'X-A': '1', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: '{}',
    })
  })

  it('import curl - reads the commands from stdin', async () => {
    const child = spawn(process.execPath, [CLI, 'import', 'curl', '-'], { stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stdin.end(curlFixture('firefox', 8080))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(code).toBe(0)
    expect(stdout).toMatch(/method: PUT\n\s+path: \/api\/items\/7\n/)
    expect(stdout).toMatch(/password: CANNONADE_SECRET_PASSWORD/)
  })

  it('import openapi SPEC --base URL writes a step per operation', async () => {
    const r = await cli('import', 'openapi', OPENAPI, '--base', 'http://127.0.0.1:8082')
    expect(r.code, r.err).toBe(0)
    expect(r.out.match(/^ {6}- name: /gm)).toHaveLength(10)
    expect(r.out).toContain('body: \'{"username":"user-1","password":"${password}"}\'')
  })

  describe('bad input is exit 2, naming what is wrong', () => {
    const notHar = join(dir, 'not.har')
    writeFileSync(notHar, '{"openapi":"3.0.0"}')
    const swagger = join(dir, 'swagger.yaml')
    writeFileSync(swagger, 'swagger: "2.0"\ninfo: { title: old }\npaths: {}\n')
    const huge = join(dir, 'huge.har')
    writeFileSync(huge, '')
    truncateSync(huge, 1024 ** 3) // 1 GB, sparse: nothing is written or read
    // Issue 29, item 19: these two once ended in a raw error and exit 1.
    const foreign = join(dir, 'foreign-path.json')
    writeFileSync(
      foreign,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 't' },
        paths: { 'http://evil/x': { get: { responses: {} } } },
      }),
    )
    it.each<[string, string[], RegExp]>([
      [
        'a file that is no HAR',
        ['har', notHar],
        /import har .*not\.har: log: is missing: this is not a HAR file/,
      ],
      ['a missing file', ['har', join(dir, 'nope.har')], /HAR file not found: .*nope\.har/],
      [
        'a 1 GB file',
        ['har', huge],
        /huge\.har is 1\.0 GB, more than a HAR file may be \(100 MB\): is it the right file\?/,
      ],
      ['a folder', ['har', dir], /is not a file: give the HAR file's path/],
      ['no file', ['har'], /import har: missing FILE \(a HAR file\)/],
      [
        'a command that is not curl',
        ['curl', 'wget http://h/a'],
        /import curl: command 1 \(line 1\): starts with "wget", not curl/,
      ],
      ['no command', ['curl'], /import curl: missing 'curl …'/],
      [
        'an OpenAPI 2 document',
        ['openapi', swagger, '--base', 'http://h'],
        /swagger: is OpenAPI 2 \(Swagger 2\.0\)/,
      ],
      ['no --base', ['openapi', OPENAPI], /base: needs --base URL/],
      [
        "a curl $'…\\U7FFFFFFF' (past Unicode)",
        ['curl', "curl $'http://127.0.0.1:9/\\U7FFFFFFF'"],
        /^cannonade import curl: \\U7FFFFFFF is not a character \(Unicode ends at \\U0010FFFF\)$/m,
      ],
      [
        'an OpenAPI document whose one path is http://evil/x',
        ['openapi', foreign, '--base', 'http://127.0.0.1:9'],
        /foreign-path\.json: paths: has no operations .*left out the paths "http:\/\/evil\/x": a path starts with a single "\/"/,
      ],
      ['a HAR flag on curl', ['curl', 'curl http://h/', '--keep-static'], /unknown option --keep-static/],
      [
        'an unknown kind',
        ['postman', 'x.json'],
        /import: unknown kind "postman" \(json, ledger, har, curl or openapi\)/,
      ],
    ])('%s', async (_name, argv, message) => {
      const r = await cli('import', ...argv)
      expect(r.code, r.err).toBe(2)
      expect(r.err).toMatch(message)
      expect(r.err).not.toMatch(/^\s+at /m) // said in words, no stack trace
      expect(r.out).toBe('')
      expect(existsSync(DB)).toBe(false)
    })
  })
})
