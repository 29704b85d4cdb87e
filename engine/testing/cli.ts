// A `cannonade` command's context for tests: a database path and streams that keep what the
// command prints, read back as text at any point (commands may run one after another on it).
import type { CliContext } from '../cli/context.ts'
import { main } from '../cli/main.ts'

export function capturedCli(dbPath: string): { ctx: CliContext; out: () => string; err: () => string } {
  let out = ''
  let err = ''
  const ctx: CliContext = {
    dbPath,
    stdout: { write: (s: string) => ((out += s), true) } as unknown as NodeJS.WritableStream,
    stderr: { write: (s: string) => ((err += s), true) } as unknown as NodeJS.WritableStream,
    isTTY: false,
  }
  return { ctx, out: () => out, err: () => err }
}

/** Run a `cannonade` command in this process on `dbPath`: its exit code and what it printed. */
export async function runCommand(
  dbPath: string,
  argv: string[],
): Promise<{ code: number; out: string; err: string }> {
  const { ctx, out, err } = capturedCli(dbPath)
  const code = await main(argv, ctx)
  return { code, out: out(), err: err() }
}
