// Launchers start a run's agents somewhere: local processes (local.ts), Docker containers,
// a Swarm replicated job, a Kubernetes Indexed Job… Each only starts, follows and removes agents;
// everything else is the agents' and the coordinator's (README.md "Launchers").
import type { ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'

export type LauncherEvent =
  /** A line an agent printed (index null: the platform's own line). */
  | { type: 'log'; index: number | null; line: string }
  /** An agent's process (container, pod) ended. */
  | { type: 'exit'; index: number | null; code: number | null; signal: string | null }

export interface Launcher {
  /** Its name in the run's distribution block: local, docker, swarm, kubernetes… */
  readonly kind: string
  /** Local processes may use the embedded store (over IPC); anything else reaches PostgreSQL. */
  readonly store: 'embedded' | 'postgres'
  /**
   * Start `count` agents. `env` is what every agent gets (engine/agents/env.ts agentEnv: the run and
   * the count); the launcher adds each agent's index, unless its platform numbers them (an
   * Indexed Job's JOB_COMPLETION_INDEX, a Swarm job's task slot), and the store's URL or secret file.
   */
  start(env: Readonly<Record<string, string>>, count: number): Promise<void>
  /** Receive the agents' output lines and exits, as the platform reports them. */
  follow(onEvent: (e: LauncherEvent) => void): void
  /** Remove what it started. Without `kill` the agents get a moment to end by themselves. */
  stop(opts?: { kill?: boolean }): Promise<void>
}

/**
 * Follows agent `index`'s process (a local agent, or the docker command attached to its
 * container): its output lines as logs, its end, or its failure to start (`failed`: the line's
 * start), as one exit. Resolves when it is gone.
 */
export function watchAgent(
  child: ChildProcess,
  index: number,
  failed: string,
  emit: (e: LauncherEvent) => void,
): Promise<void> {
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue
    createInterface({ input: stream }).on('line', (line) => emit({ type: 'log', index, line }))
  }
  return new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      emit({ type: 'exit', index, code, signal })
      resolve()
    })
    child.once('error', (err) => {
      emit({ type: 'log', index, line: `${failed}: ${err.message}` })
      emit({ type: 'exit', index, code: null, signal: null })
      resolve()
    })
  })
}

/** What every launcher shares: those who follow its agents' events. */
export abstract class FollowedLauncher {
  private readonly listeners: ((e: LauncherEvent) => void)[] = []

  follow(onEvent: (e: LauncherEvent) => void): void {
    this.listeners.push(onEvent)
  }

  protected emit(e: LauncherEvent): void {
    for (const l of this.listeners) l(e)
  }
}
