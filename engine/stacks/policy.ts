// Where a stack is started for a run: the one policy the engine host (a run, host/runs.ts) and a
// study (a sweep's values, study/run-study.ts) follow. A run whose target names a bundled stack that is
// not running starts it first; one running with other settings than the target's `stack:` gives
// (its env, replicas) is restarted with them; a native stack is measured as it runs. Stacks a sweep
// restarts are left to the sweep, which restarts each for its value and puts it back at the end.
import type { RunConfig } from '../config/schema.ts'
import { connectProblem } from '../config/preflight.ts'
import { changesStack, stackPort, type StackSetting } from '../config/sweep.ts'
import type { Stacks, StackSnapshot } from './stacks.ts'

/** The targets whose stack a sweep restarts (or moves) for its values. */
export function sweptTargets(config: RunConfig): Set<number> {
  const out = new Set<number>()
  const paths = config.sweep ? [config.sweep.path, ...(config.sweep.by ? [config.sweep.by.path] : [])] : []
  for (const path of paths) {
    if (!changesStack(path)) continue
    const which = path.split('.')[1]!
    if (which === '*') config.targets.forEach((t, i) => t.stack && out.add(i))
    else out.add(Number(which))
  }
  return out
}

/**
 * Start (or restart) the stacks `config`'s targets name, before the preflight, saying why for each
 * (`say`); returns the names of the stacks it started. A stack that answers at the target's URL but
 * was not started from here (by hand, from another data folder) is measured as it is.
 */
export async function ensureStacks(
  stacks: Stacks,
  config: RunConfig,
  say: (stack: string, line: string) => void,
): Promise<string[]> {
  const swept = sweptTargets(config)
  const started: string[] = []
  for (const [i, t] of config.targets.entries()) {
    const s = t.stack
    if (!s || swept.has(i) || started.includes(s.name)) continue
    const now = await stacks.snapshot(s.name)
    const line = await startReason(now, s, i, t.url, config.name)
    if (line === null) continue
    say(s.name, line)
    const { port, tlsPort } = portsOf(config, s.name)
    await stacks.up(s.name, {
      build: !now.running,
      native: s.native,
      env: s.env,
      replicas: s.replicas,
      ...(port !== null ? { port } : {}),
      ...(tlsPort !== null ? { tlsPort } : {}),
    })
    started.push(s.name)
  }
  return started
}

/**
 * The ports the targets on stack `name` expect it on: its port from their first http:// URL, its
 * TLS port from their first https:// URL (a stack serving HTTP/1.1, h2c and h2 has both).
 */
export function portsOf(config: RunConfig, name: string): { port: number | null; tlsPort: number | null } {
  const urls = config.targets.filter((t) => t.stack?.name === name).map((t) => t.url)
  const first = (scheme: string) => {
    const url = urls.find((u) => u.startsWith(scheme))
    return url === undefined ? null : stackPort(url)
  }
  return { port: first('http:'), tlsPort: first('https:') }
}

type TargetStack = NonNullable<RunConfig['targets'][number]['stack']>

/** Why target `i`'s stack is started or restarted for this run, or null when it is left as it is. */
async function startReason(
  now: StackSnapshot,
  s: TargetStack,
  i: number,
  url: string,
  configName: string,
): Promise<string | null> {
  if (now.running) {
    const differs = Object.entries(s.env).filter(([k, v]) => now.env[k] !== String(v))
    if (now.native !== s.native || (differs.length === 0 && now.replicas === s.replicas)) return null
    if (now.native) return null // a native stack's settings are its own: measured as it runs
    const was =
      differs.map(([k]) => `${k}=${now.env[k] ?? '(default)'}`).join(', ') || `${now.replicas} replicas`
    const will = differs.map(([k, v]) => `${k}=${v}`).join(', ') || `${s.replicas} replicas`
    return `running with ${was}: restarting it with ${will} as targets.${i}.stack says`
  }
  // Not started from here, but something answers at the target's URL: measure that, as the config says.
  if ((await connectProblem(url, 1000)) === null) return null
  return `not running: starting it for this run (targets.${i}.stack of "${configName}")`
}

/** What a study does to a stack: restart it with a value's settings, and put it back at the end. */
export interface StackControl {
  /** How the stack runs now, before the study changes it. */
  snapshot(name: string): Promise<StackSnapshot>
  /** Restart (or start) the stack with these settings. */
  apply(setting: StackSetting): Promise<void>
  /** Put the stack back as the snapshot found it. */
  restore(snapshot: StackSnapshot): Promise<void>
}

/**
 * A study's StackControl on the engine's Stacks. A restart takes the stack down first (its database
 * volume kept): `up` on a running compose project recreates what it sees changed, and an app
 * recreated while its database was being recreated too could not resolve it and never became healthy.
 */
export function stackControl(stacks: Stacks): StackControl {
  return {
    snapshot: (name) => stacks.snapshot(name),
    apply: async (s) => {
      const running = (await stacks.snapshot(s.name)).running
      if (running) await stacks.down(s.name)
      await stacks.up(s.name, {
        // Built when the study found it down; a running stack's images are current.
        build: !running,
        native: s.native,
        env: s.env,
        replicas: s.replicas,
        ...(s.port !== null ? { port: s.port } : {}),
      })
    },
    restore: async (snap) => {
      await stacks.down(snap.name)
      if (snap.running)
        await stacks.up(snap.name, {
          native: snap.native,
          env: snap.env,
          replicas: snap.replicas,
          port: snap.port,
        })
    },
  }
}
