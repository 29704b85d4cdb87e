export interface CliContext {
  dbPath: string
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  isTTY: boolean
}

/** One `cannonade` command: what `--help` prints (its synopsis and every flag), and the command. */
export interface CliCommand {
  help: string
  run(argv: string[], ctx: CliContext): Promise<number>
}
