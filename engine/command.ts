// Running an outside command (docker, docker compose, taskset) with a deadline it cannot escape:
// the command runs in its own process group, and at the deadline the whole group is killed, so a
// wrapper script whose child keeps the output pipe open cannot hang the caller either. Output is
// passed on line by line; the last 200 lines are kept for error messages.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'

export interface CommandResult {
  code: number
  lines: string[]
  /** The deadline passed and the command was killed. */
  timedOut: boolean
}

export interface CommandOptions {
  env?: NodeJS.ProcessEnv
  cwd?: string
  onLine?: (line: string) => void
  /** Written to the command's stdin (then closed): a secret that must not go on its argv. */
  input?: string
  /** Kill the command (and whatever it started) after this long. */
  timeoutMs: number
}

/** Kill `child` and whatever it started; its pipes are closed, not waited for (a grandchild may hold them). */
function killGroup(child: ChildProcessWithoutNullStreams): void {
  try {
    if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL')
    else child.kill('SIGKILL')
  } catch {
    /* already gone */
  }
  child.stdout.destroy()
  child.stderr.destroy()
}

/** The most characters of one line of a command's output that are kept. */
const MAX_LINE_CHARS = 64 * 1024

export function runCommand(
  cmd: string,
  args: readonly string[],
  opts: CommandOptions,
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      // stdin is a pipe ended at once (end of input, as /dev/null gives) unless input is given.
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    })
    const lines: string[] = []
    let partial = ''
    let settled = false
    const feed = (chunk: Buffer) => {
      const text = partial + chunk.toString('utf8')
      const parts = text.split(/\r?\n|\r/)
      // A line that never ends (a command writing megabytes without a line break) is cut.
      partial = (parts.pop() ?? '').slice(0, MAX_LINE_CHARS)
      for (const line of parts) {
        if (!line.trim()) continue
        lines.push(line)
        if (lines.length > 200) lines.shift()
        opts.onLine?.(line)
      }
    }
    const finish = (code: number, timedOut: boolean, extra?: string) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (partial.trim()) lines.push(partial)
      if (extra) lines.push(extra)
      resolve({ code, lines, timedOut })
    }
    // A command that exits without reading its input: its exit code says why.
    child.stdin.on('error', () => {})
    child.stdin.end(opts.input)
    child.stdout.on('data', feed)
    child.stderr.on('data', feed)
    const timer = setTimeout(() => {
      killGroup(child)
      finish(124, true)
    }, opts.timeoutMs)
    child.on('error', (err) => finish(127, false, err.message))
    child.on('close', (code) => finish(code ?? 1, false))
  })
}

/** "docker info did not answer within 20 s" for a timed-out result, or null. */
export function timeoutMessage(r: CommandResult, what: string, timeoutMs: number): string | null {
  return r.timedOut ? `${what} did not answer within ${Math.round(timeoutMs / 1000)} s and was stopped` : null
}

export interface CapturedOutput {
  code: number
  stdout: string
  /** Its last 2,000 characters. */
  stderr: string
  timedOut: boolean
  /** It wrote more than `maxBytes` to stdout and was stopped. */
  tooLarge: boolean
}

/**
 * A command whose stdout is its answer (a credential plugin's JSON), run without blocking the
 * caller: at most `maxBytes` of stdout are kept (past them, and at the deadline, its process group
 * is killed), stdin is closed at once.
 */
export function captureCommand(
  cmd: string,
  args: readonly string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs: number; maxBytes: number },
): Promise<CapturedOutput> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    })
    const out: Buffer[] = []
    let size = 0
    let err = ''
    let settled = false
    let tooLarge = false
    const kill = () => killGroup(child)
    const finish = (code: number, timedOut: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: err, timedOut, tooLarge })
    }
    child.stdin.on('error', () => {})
    child.stdin.end()
    child.stdout.on('data', (c: Buffer) => {
      size += c.length
      if (size > opts.maxBytes) {
        tooLarge = true
        kill()
        return finish(1, false)
      }
      out.push(c)
    })
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString('utf8')).slice(-2000)))
    const timer = setTimeout(() => {
      kill()
      finish(124, true)
    }, opts.timeoutMs)
    child.on('error', (e) => {
      err = e.message
      finish(127, false)
    })
    child.on('close', (code) => finish(code ?? 1, false))
  })
}
