// The flag parser every command shares: typed values, bad input naming the flag, and `--help`
// listing every flag a command accepts.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest'
import { parseServeArgs, serveCommand } from './serve.ts'
import { helpText, parseFlags, wantsHelp, type FlagSpec } from './args.ts'
import type { CliContext } from './context.ts'
import { COMMANDS, MAIN_USAGE, main } from './main.ts'

const SPEC = {
  db: { type: 'string', value: 'FILE', help: 'the database' },
  cpu: { type: 'number', value: 'N', help: 'a CPU' },
  quiet: { type: 'boolean', help: 'say less' },
} as const satisfies FlagSpec

const dir = mkdtempSync(join(tmpdir(), 'cannonade-args-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A command run in this process, its output collected; its database is never opened. */
async function call(
  command: (argv: string[], ctx: CliContext) => Promise<number>,
  argv: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = []
  const err: string[] = []
  const stdout = new PassThrough().on('data', (c: Buffer) => out.push(c.toString()))
  const stderr = new PassThrough().on('data', (c: Buffer) => err.push(c.toString()))
  const code = await command(argv, { dbPath: join(dir, 'never-opened.db'), stdout, stderr, isTTY: false })
  return { code, stdout: out.join(''), stderr: err.join('') }
}

describe('parseFlags', () => {
  it('gives each flag the type its declaration names', () => {
    const { flags, positional } = parseFlags(['run.yaml', '--cpu', '3', '--db=x.db', '--quiet'], SPEC)
    expect(flags).toEqual({ cpu: 3, db: 'x.db', quiet: true })
    expect(positional).toEqual(['run.yaml'])
    expectTypeOf(flags.cpu).toEqualTypeOf<number | undefined>()
    expectTypeOf(flags.db).toEqualTypeOf<string | undefined>()
    expectTypeOf(flags.quiet).toEqualTypeOf<boolean | undefined>()
    expect(parseFlags([], SPEC).flags).toEqual({})
  })

  it('takes a negative number as a value, and everything after -- as arguments', () => {
    expect(parseFlags(['--cpu', '-1'], SPEC).flags.cpu).toBe(-1)
    expect(parseFlags(['--', '--cpu', '2'], SPEC)).toEqual({ flags: {}, positional: ['--cpu', '2'] })
  })

  it('names the flag in every error', () => {
    const cases: [string[], string][] = [
      [['--cpus', '2'], 'unknown option --cpus'],
      [['--constructor'], 'unknown option --constructor'],
      [['--cpu'], '--cpu needs a value'],
      [['--db', '--quiet'], '--db needs a value'],
      [['--cpu', 'two'], '--cpu: "two" is not a number'],
      [['--cpu='], '--cpu: "" is not a number'],
      [['--cpu', 'Infinity'], '--cpu: "Infinity" is not a number'],
      [['--quiet=yes'], '--quiet takes no value'],
    ]
    for (const [argv, message] of cases) expect(() => parseFlags(argv, SPEC), argv.join(' ')).toThrow(message)
  })

  it('writes a help that lists every flag with its value', () => {
    const text = helpText('usage: x [options]', SPEC)
    expect(text.split('\n')).toEqual([
      'usage: x [options]',
      'options:',
      '  --db FILE  the database',
      '  --cpu N    a CPU',
      '  --quiet    say less',
    ])
    expect(wantsHelp(['a', '-h'])).toBe(true)
    expect(wantsHelp(['--', '--help'])).toBe(false)
  })
})

describe('--help of every command', () => {
  // The flags README.md ("The command line") gives each command, and the ones each command also takes.
  const expected: Record<string, string[]> = {
    run: [
      '--db FILE',
      '--json OUT',
      '--quiet',
      '--cpu N',
      '--agents N',
      '--on WHERE',
      '--raw keep|upload',
      '--demo',
      '--duration S',
      '--connections N',
      '--requests N',
      '--rate R',
      '--method METHOD',
      "--header 'K: V'",
      '--body BODY',
      '--save FILE.yaml',
      '--allow-concurrent',
    ],
    // Everything an agent needs comes from its environment (engine/agents/README.md).
    agent: [],
    agents: [
      '--agents N',
      '--on kubernetes',
      '--run KEY',
      '--image IMG',
      '--namespace NS',
      '--secret NAME',
      '--secret-from-env',
      '--agent-cpu CPU',
      '--agent-memory SIZE',
      '--out FILE',
    ],
    runs: [
      '--json',
      '--search TEXT',
      '--tag TAG[,TAG]',
      '--status S',
      '--target NAME',
      '--limit N',
      '--offset N',
      '--db FILE',
    ],
    export: ['--url postgres://', '--out FILE', '--series', '--study ID', '--db FILE'],
    import: [
      '--db FILE',
      '--run ID',
      '--keep-static',
      '--keep-third-party',
      '--keep-conditional',
      '--base URL',
      '--out CONFIG.yaml',
      '--name TEXT',
    ],
    report: [
      '--out FILE.pdf',
      '--baseline RUN:TARGET',
      '--pair A=B[,C=D]',
      '--min-effect PCT',
      '--html FILE.html',
      '--title TEXT',
      '--db FILE',
    ],
    compare: [
      '--baseline RUN:TARGET',
      '--pair A=B[,C=D]',
      '--min-effect PCT',
      '--series',
      '--json OUT',
      '--db FILE',
    ],
    stacks: ['--native', '--port P', '--replicas N', '--volumes', '--json'],
    serve: ['--port P', '--db FILE'],
    calibrate: [
      '--connections N',
      '--duration S',
      '--rounds N',
      '--cooldown S',
      '--rate R',
      '--minutes M',
      '--json OUT',
      '--db FILE',
      '--quiet',
      '--cpu N',
      '--allow-concurrent',
    ],
  }

  it('exits 0 and lists each flag the command accepts on a line of its own', async () => {
    expect([...COMMANDS].sort()).toEqual(Object.keys(expected).sort())
    for (const [command, flags] of Object.entries(expected)) {
      const r = await call(main, [command, '--help'])
      expect(r.code, command).toBe(0)
      const options = r.stdout.split('\n').filter((l) => /^ {2}--/.test(l))
      expect(options.length, command).toBe(flags.length)
      for (const flag of flags)
        expect(
          options.some((l) => l.trimStart().startsWith(flag)),
          `${command} ${flag}`,
        ).toBe(true)
    }
  })
})

describe('every flag a command accepts is in its --help', () => {
  // Every flag any command declares (`name: { type: … }` in engine/cli/ and the serve command),
  // read from the sources, so a new flag needs no entry here.
  const sources = [
    ...readdirSync(new URL('.', import.meta.url))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => new URL(f, import.meta.url)),
    new URL('./serve.ts', import.meta.url),
  ]
  const universe = new Set<string>()
  for (const file of sources)
    for (const m of readFileSync(file, 'utf8').matchAll(
      /['"]?([a-z][\w-]*)['"]?:\s*\{\s*type:\s*'(?:string|number|boolean)'/g,
    ))
      universe.add(m[1]!)
  // Arguments that make each command (and subcommand) stop right after parsing its flags.
  const probes: Record<string, string[][]> = {
    run: [['missing.yaml']],
    runs: [['list'], ['show', '999999'], ['delete', '999999'], ['prune', '999999'], ['complete', 'x']],
    export: [
      ['pg', '999999'],
      ['csv', '999999'],
      ['json', '999999'],
      ['junit', '999999'],
    ],
    import: [
      ['json', 'missing.json'],
      ['ledger', 'missing.db'],
      ['har', 'missing.har'],
      ['curl', 'curl http://127.0.0.1:1/'],
      ['openapi', 'missing.yaml'],
    ],
    report: [['999999']],
    compare: [['999999', '999998']],
    stacks: [['list'], ['up', 'no-such-stack'], ['down', 'no-such-stack']],
    agents: [['manifest', 'missing.yaml']],
    agent: [[]],
    calibrate: [['not-a-url']],
  }
  const probeDir = mkdtempSync(join(tmpdir(), 'cannonade-args-probe-'))
  afterAll(() => rmSync(probeDir, { recursive: true, force: true }))
  const run = async (argv: string[]) => {
    const err: string[] = []
    const sink = new PassThrough()
    const stderr = new PassThrough().on('data', (c: Buffer) => err.push(c.toString()))
    await main(argv, { dbPath: join(probeDir, 'probe.db'), stdout: sink, stderr, isTTY: false })
    return err.join('')
  }
  const listed = async (command: string) =>
    (await call(main, [command, '--help'])).stdout
      .split('\n')
      .filter((l) => /^ {2}--/.test(l))
      .map((l) => /^ {2}--([\w-]+)/.exec(l)![1]!)

  it('finds the flags it checks', () => {
    expect(universe.size).toBeGreaterThan(15)
    for (const flag of ['db', 'json', 'series', 'study', 'replicas', 'volumes', 'port'])
      expect(universe).toContain(flag)
    expect([...COMMANDS, 'serve'].filter((c) => c !== 'serve').sort()).toEqual(Object.keys(probes).sort())
  })

  it('lists, for every command, each flag it accepts, and accepts each flag it lists', async () => {
    for (const [command, bases] of Object.entries(probes)) {
      const help = await listed(command)
      const accepted = new Set<string>()
      for (const base of bases)
        for (const flag of universe)
          if (!(await run([command, ...base, `--${flag}`])).includes(`unknown option --${flag}`))
            accepted.add(flag)
      expect([...accepted].sort(), command).toEqual([...new Set(help)].sort())
    }
    const serveAccepted = [...universe].filter((flag) => {
      try {
        parseServeArgs([`--${flag}`, '1'], { dbPath: join(probeDir, 'serve.db') })
        return true
      } catch (err) {
        return !String(err).includes(`unknown option --${flag}`)
      }
    })
    expect(serveAccepted.sort()).toEqual((await listed('serve')).sort())
  }, 120_000)

  it('cannonade --help and README.md show every flag of every command', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    const block = /## The command line\n\n```\n([\s\S]*?)```/.exec(readme)![1]!
    expect((await call(main, ['--help'])).stdout).toBe(MAIN_USAGE + '\n')
    expect(MAIN_USAGE).toContain('--db FILE')
    expect(block).toContain('--db FILE')
    for (const command of [...COMMANDS].sort()) {
      const mine = (text: string, lead: string) =>
        text
          .split('\n')
          .filter((l) => l.startsWith(lead))
          .join('\n')
      const usage = mine(MAIN_USAGE, `  ${command} `)
      const documented = mine(block, `cannonade ${command} `)
      for (const flag of await listed(command)) {
        if (flag === 'db') continue
        expect(usage, `cannonade --help: ${command} --${flag}`).toContain(`--${flag}`)
        expect(documented, `README.md: ${command} --${flag}`).toContain(`--${flag}`)
      }
    }
  })
})

describe('serve parses its flags like every command', () => {
  it('exits 2 naming the flag, before opening anything', async () => {
    const cases: [string[], RegExp][] = [
      [['--port', 'http'], /--port: "http" is not a number/],
      [['--port', '70000'], /--port: must be a whole number 0-65535, got 70000/],
      [['--port', '80.5'], /--port: must be a whole number 0-65535, got 80.5/],
      [['--db'], /--db needs a value/],
      [['--host', '0.0.0.0'], /unknown option --host/],
      [['8080'], /serve takes no argument "8080"/],
    ]
    for (const [argv, message] of cases) {
      const r = await call(serveCommand, argv)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.stderr, argv.join(' ')).toMatch(message)
      expect(r.stderr).toContain('usage: cannonade serve')
    }
    expect(existsSync(join(dir, 'never-opened.db'))).toBe(false)
  })
})
