export interface CliContext {
  dbPath: string
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  isTTY: boolean
}
