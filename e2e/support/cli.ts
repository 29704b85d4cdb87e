// The `cannonade` command as a user runs it (bin/cannonade.mjs in a child process), and reading
// back what it and the app print, for the every-screen figures tests.
import { execFile, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { expect } from 'vitest'
import { ROOT } from './app.ts'

const BIN = join(ROOT, 'bin', 'cannonade.mjs')

export function cannonade(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 90_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 99) : 0, stdout, stderr })
    })
  })
}

/**
 * A row of the CLI table whose first cell is `target` (and second `round`, when given):
 * TARGET ROUND TIME REQUESTS REQ/S 8 × latency ERRORS IN-FLIGHT.
 */
export function cliRow(text: string, target: string, round?: string): string[] {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${target} `) && (round === undefined || l.split(/\s+/)[1] === round))
  expect(line, text).toBeDefined()
  return line!.trim().split(/\s+/)
}

/** A number as the app prints it ("1,234", "45.6 req/s", "12 (3.4 %)"): its first number. */
export const firstNumber = (text: string): number =>
  Number(/[\d,]+(\.\d+)?/.exec(text)?.[0]?.replace(/,/g, '') ?? NaN)

/** A PDF's text from `first` to `last` page, whitespace squashed (a line may wrap anywhere). */
export function pdfText(pdf: string, first = 1, last = first): string {
  return spawnSync('pdftotext', ['-f', String(first), '-l', String(last), '-layout', pdf, '-'], {
    encoding: 'utf8',
  })
    .stdout.replace(/\s+/g, ' ')
    .replace(/– /g, '–')
    .trim()
}
