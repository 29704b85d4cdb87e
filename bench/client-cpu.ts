// The CPU the client bench (bench/client.ts) measures: a command's whole process tree (bash's
// `times` after it: children included, a forked runner and its threads too), and this checkout's
// runner process alone (engine/runner/worker.ts, found and read in /proc while it runs).
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { spawnCollected } from '../engine/testing/process.ts'

/** This checkout. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** The runner process' script: its command line names it. */
export const RUNNER_WORKER = join(ROOT, 'engine', 'runner', 'worker.ts')

interface Timed {
  code: number
  stdout: string
  stderr: string
  cpuUs: number
}

const seconds = (m: string, s: string) => (Number(m) * 60 + Number(s)) * 1e6

/** `cmd` pinned to CPU 0 under bash, whose `times` then gives the CPU of all it ran (reaped children). */
export async function timed(cmd: string[], env: Record<string, string> = {}, timeoutS = 120): Promise<Timed> {
  const script = '"$@"; rc=$?; times >&2; exit $rc'
  const { child, result } = spawnCollected('bash', ['-c', script, 'bench', 'taskset', '-c', '0', ...cmd], env)
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutS * 1000)
  const { code, stdout, stderr } = await result
  clearTimeout(timer)
  // The last line of `times`: the children's user and system time, e.g. "0m1.234s 0m0.567s".
  const lines = stderr.trimEnd().split('\n')
  const m = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(lines.at(-1) ?? '')
  if (!m) throw new Error(`${cmd[0]}: no CPU times (exit ${code}): ${stderr.slice(-500)}`)
  const cpuUs = seconds(m[1]!, m[2]!) + seconds(m[3]!, m[4]!)
  return { code, stdout, stderr: lines.slice(0, -2).join('\n'), cpuUs }
}

/** This checkout's runner process (engine/runner/worker.ts), if one is running. */
export function runnerPid(): number | undefined {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(RUNNER_WORKER)) return Number(pid)
    } catch {
      /* gone */
    }
  }
  return undefined
}

/**
 * The runner's own user+system CPU (/proc/PID/stat, clock ticks of 10 ms), read every 100 ms
 * until it ends: what it used up to its last reading (a lower bound by at most 100 ms of its end).
 */
export function watchRunnerCpu(): { done: boolean; cpuUs: Promise<number> } {
  const w = { done: false, cpuUs: Promise.resolve(0) }
  w.cpuUs = (async () => {
    let pid: number | undefined
    let last = 0
    for (;;) {
      pid ??= runnerPid()
      if (pid) {
        try {
          const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
          last = (Number(f[11]) + Number(f[12])) * 10_000
        } catch {
          return last // it ended
        }
      } else if (w.done) return last
      await new Promise((r) => setTimeout(r, 100))
    }
  })()
  return w
}
