// Agents a person starts (`agents.on: external`, `cannonade run CONFIG --agents N --on external`):
// on machines no launcher reaches, by hand or with a tool of their own. The engine starts nothing;
// the run says what each agent runs (joinCommand: the run's key, the count, the index, the store)
// and waits at the first barrier for all N to join (agents.barrierTimeoutSeconds, 600 s by
// default for this launcher: people start them). They reach the PostgreSQL coordination store.
import type { AgentJoin } from '../../api/types.ts'
import { redactUrl } from '../../config/redact.ts'
import { ENV } from '../env.ts'
import { FollowedLauncher, type Launcher } from './launcher.ts'

export class ExternalLauncher extends FollowedLauncher implements Launcher {
  readonly kind = 'external'
  readonly store = 'postgres' as const

  /** Nothing to start: the agents are started by whoever runs them (joinCommand says how). */
  async start(): Promise<void> {}

  /** Nothing to remove; an agent still going hears the run's stop through the store. */
  async stop(): Promise<void> {}
}

/** Quoted for a POSIX shell where needed. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`
}

/**
 * What each agent of the run runs, INDEX being 0 … count − 1. The store's URL is shown with its
 * password masked (it is in no log or screen): the person starting an agent supplies it, or
 * points CANNONADE_STORE_URL_FILE at a file that holds the URL.
 */
export function joinCommand(
  run: { runKey: string; count: number; storeUrl: string },
  timeoutSeconds: number,
): AgentJoin {
  const masked = redactUrl(run.storeUrl)
  const command = [
    `${ENV.run}=${run.runKey}`,
    `${ENV.count}=${run.count}`,
    'CANNONADE_AGENT_INDEX=INDEX',
    `${ENV.storeUrl}=${shellWord(masked)}`,
    'cannonade agent',
  ].join(' ')
  return {
    runKey: run.runKey,
    count: run.count,
    command,
    passwordMasked: masked !== run.storeUrl,
    timeoutSeconds,
  }
}
