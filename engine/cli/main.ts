// The `cannonade` command (README.md, "The command line": a contract users' scripts rely on). Every
// command is a client of the engine (engine/host/index.ts), like the web server and the desktop app.
import { defaultDbPath } from '../paths.ts'
import { wantsHelp } from './args.ts'
import type { CliCommand, CliContext } from './context.ts'
import { textStream } from './text.ts'

const USAGE = `usage: cannonade <command> [options]      cannonade <command> --help explains each option
  run CONFIG.(json|yaml) [--json OUT] [--quiet] [--cpu N] [--allow-concurrent]
                                                               run a load test (with sweep: a study)
  run CONFIG --agents N [--on local|docker|swarm|kubernetes|external] [--raw keep|upload]   N load agents, one run
  run URL [-c|--connections N] [-d|--duration S | -n|--requests N] [--rate R] [-m|--method METHOD] [-H|--header 'K: V'] [-b|--body BODY] [--save FILE.yaml]
                                                               one URL, no config (--save writes its config)
  run --demo [--duration S] [--connections N]                  against the embedded demo target
  agent                                                        one agent's share (its environment says which)
  agents manifest CONFIG --agents N --on kubernetes [--run KEY] [--image IMG] [--namespace NS] [--secret NAME | --secret-from-env] [--agent-cpu CPU] [--agent-memory MEM] [--out FILE]
                                                               the agents' Indexed Job, for kubectl or GitOps
  runs list [--json] [--search TEXT] [--tag TAG[,TAG]] [--status S] [--target NAME] [--limit N] [--offset N]
  runs show ID [--json] | runs delete ID | runs prune ID | runs complete   the history
  export pg ID... --url postgres://... | export csv ID --out FILE [--series]
  export csv --study ID --out FILE | export json ID... --out FILE | export junit ID --out FILE
  import json FILE | import ledger FILE --run ID | import har FILE [--keep-static] [--keep-third-party] [--keep-conditional] | import curl 'curl …'…
  import openapi SPEC --base URL        har, curl, openapi: [--name TEXT] [--out CONFIG.yaml]
  report ID... --out FILE.pdf [--baseline RUN:TARGET] [--min-effect PCT] [--pair A=B] [--html FILE.html] [--title TEXT]
  compare ID... [--baseline RUN:TARGET] [--pair A=B[,C=D]] [--min-effect PCT] [--series] [--json OUT]
  calibrate URL [--connections N] [--duration S] [--rounds N] [--cooldown S] [--rate R] [--minutes M] [--json OUT] [--quiet] [--cpu N] [--allow-concurrent]
                                                               A/A: this machine's spread, the smallest difference it resolves
  stacks list | up NAME [--native] [--port P] [--replicas N] | down NAME [--volumes] | status [--json]
  serve [--port P]                                             web UI + API on 127.0.0.1
Every command takes --db FILE: the history database (default: the desktop app's).
Exit codes: 0 success, 1 thresholds failed or run not completed (partial, aborted, failed), 2 bad input.`

// Each command's module loads only when used: `cannonade run` does not pay for the web server.
const commands: Record<string, () => Promise<CliCommand>> = {
  run: async () => (await import('./run.ts')).runCli,
  agent: async () => (await import('./agent.ts')).agentCli,
  agents: async () => (await import('./agents.ts')).agentsCli,
  runs: async () => (await import('./runs.ts')).runsCli,
  export: async () => (await import('./export.ts')).exportCli,
  import: async () => (await import('./import.ts')).importCli,
  serve: async () => (await import('./serve.ts')).serveCli,
  report: async () => (await import('./report.ts')).reportCli,
  compare: async () => (await import('./compare.ts')).compareCli,
  calibrate: async () => (await import('./calibrate.ts')).calibrateCli,
  stacks: async () => (await import('./stacks.ts')).stacksCli,
}

export const COMMANDS: readonly string[] = Object.keys(commands)

/** What `cannonade --help` prints: every command with every flag it takes (tested against each). */
export const MAIN_USAGE = USAGE

export async function main(argv: string[], ctx?: Partial<CliContext>): Promise<number> {
  const full: CliContext = {
    dbPath: ctx?.dbPath ?? defaultDbPath(),
    // Terminal output is text: a stored ESC, CR or NUL is printed escaped (text.ts).
    stdout: textStream(ctx?.stdout ?? process.stdout),
    stderr: textStream(ctx?.stderr ?? process.stderr),
    isTTY: ctx?.isTTY ?? Boolean(process.stderr.isTTY),
  }
  const [name, ...rest] = argv
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    full.stdout.write(USAGE + '\n')
    return name ? 0 : 2
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined
  if (!load) {
    full.stderr.write(`cannonade: unknown command "${name}"\n${USAGE}\n`)
    return 2
  }
  const command = await load()
  if (wantsHelp(rest)) {
    full.stdout.write(command.help + '\n')
    return 0
  }
  return command.run(rest, full)
}
