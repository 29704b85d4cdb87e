// A `cannonade` command's context for tests: a database path and streams that keep what the
// command prints, read back as text at any point (commands may run one after another on it). And
// bad configs through `cannonade run`, each refused with exit 2 and a line naming its field.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect } from 'vitest'
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

/**
 * Bad configs through the real `cannonade run` command (in process), for a test file: each config
 * (a document, or JSON text as it is) is written into a folder made before the file's tests and
 * removed after them, and must exit 2 with a line naming `field` (matching `message` when given),
 * no stack trace, and no database written.
 */
export function refusedConfigs(): (
  doc: Record<string, unknown> | string,
  field: string,
  message?: RegExp,
) => Promise<void> {
  let dir = ''
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cannonade-bad-input-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  let n = 0
  return async function expectRefused(
    doc: Record<string, unknown> | string,
    field: string,
    message?: RegExp,
  ) {
    const file = join(dir, `case-${n++}.json`)
    writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc))
    const db = join(dir, 'never.db')
    const { code, err: stderr } = await runCommand(db, ['run', file, '--db', db])
    expect(code, stderr).toBe(2)
    // One line per issue: "  field: message".
    const line = stderr.split('\n').find((l) => l.startsWith(`  ${field}: `))
    expect(line, `no line for ${field} in:\n${stderr}`).toBeDefined()
    if (message) expect(line).toMatch(message)
    expect(stderr).not.toMatch(/\n\s+at /)
    expect(existsSync(join(dir, 'never.db'))).toBe(false)
  }
}
