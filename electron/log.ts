// The desktop app's log file: main's own lines and the engine process's output, one file in the
// data folder's logs/ (Help → Open Log File). Kept small: past 5 MB it moves to cannonade.old.log
// and a new one starts. Lines carry an ISO time; secrets are never passed here (they travel by
// message to the engine and are never printed).
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs'
import { join } from 'node:path'

const MAX_BYTES = 5 * 1024 * 1024

export interface Log {
  readonly file: string
  line(text: string): void
  /** For a child's stdout/stderr: whole lines, prefixed with where they came from. */
  sink(prefix: string): (chunk: Buffer | string) => void
}

export function openLog(dir: string, echo: (text: string) => void = (t) => console.error(t)): Log {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'cannonade.log')
  let size = 0
  try {
    size = statSync(file).size
  } catch {
    size = 0
  }
  const write = (text: string) => {
    const entry = `${new Date().toISOString()} ${text}\n`
    echo(text)
    try {
      if (size + entry.length > MAX_BYTES) {
        renameSync(file, join(dir, 'cannonade.old.log'))
        size = 0
      }
      appendFileSync(file, entry, { mode: 0o600 })
      size += Buffer.byteLength(entry)
    } catch {
      // A full or read-only disk must not take the app down with it; the console still has the line.
    }
  }
  return {
    file,
    line: write,
    sink(prefix) {
      let pending = ''
      return (chunk) => {
        pending += chunk.toString()
        const lines = pending.split('\n')
        pending = lines.pop() ?? ''
        for (const l of lines) if (l.trim()) write(`${prefix}: ${l}`)
      }
    },
  }
}
