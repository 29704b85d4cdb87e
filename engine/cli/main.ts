// The `cannonade` command (DESIGN.md "The command line").
import { defaultDbPath } from '../paths.ts'
import type { CliContext } from './context.ts'
import { runCommand } from './run.ts'

const USAGE = `usage: cannonade <command> [options]
  run CONFIG.(json|yaml) [--db FILE] [--json OUT] [--quiet]   run a load test
  run --demo [--duration S] [--connections N]                  against the embedded demo target
  runs list [--json] | runs show ID [--json] | runs delete ID  the history
  export pg ID... --url postgres://... | export csv ID --out FILE
  report ID... --out FILE.pdf [--html FILE.html]
  stacks list | up NAME [--native] | down NAME | status [--json]
  serve [--port P]                                             web UI + API on 127.0.0.1
Exit codes: 0 success, 1 thresholds failed or run not completed, 2 bad input.`

type Command = (argv: string[], ctx: CliContext) => Promise<number>

// Each command's module loads only when used: `cannonade run` does not pay for the web server.
const commands: Record<string, () => Promise<Command>> = {
  run: async () => runCommand,
  runs: async () => (await import('./runs.ts')).runsCommand,
  export: async () => (await import('./export.ts')).exportCommand,
  import: async () => (await import('./export.ts')).importCommand,
  serve: async () => (await import('../server/command.ts')).serveCommand,
  report: async () => (await import('./report.ts')).reportCommand,
  stacks: async () => (await import('./stacks.ts')).stacksCommand,
}

export async function main(argv: string[], ctx?: Partial<CliContext>): Promise<number> {
  const full: CliContext = {
    dbPath: ctx?.dbPath ?? defaultDbPath(),
    stdout: ctx?.stdout ?? process.stdout,
    stderr: ctx?.stderr ?? process.stderr,
    isTTY: ctx?.isTTY ?? Boolean(process.stderr.isTTY),
  }
  const [name, ...rest] = argv
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    full.stdout.write(USAGE + '\n')
    return name ? 0 : 2
  }
  const load = commands[name]
  if (!load) {
    full.stderr.write(`cannonade: unknown command "${name}"\n${USAGE}\n`)
    return 2
  }
  return (await load())(rest, full)
}
