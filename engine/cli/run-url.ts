// `cannonade run URL [-c N] [-d S | -n N] [--rate R] [-m METHOD] [-H 'K: V'] [-b BODY] [--save FILE.yaml]`:
// a URL is enough, as wrk, oha, hey and autocannon take one (issue 28, Must 9). The one-target
// config is engine/config/from-url.ts's, checked by the schema like a file; a problem names the
// option it came from (exit 2). `--save` writes that config as YAML, before the run, so the same
// run can be edited and run again from the file.
import { stringify } from 'yaml'
import { ConfigError } from '../config/errors.ts'
import { quickConfig, quickFlag, type QuickRun } from '../config/from-url.ts'
import { parseRunConfig } from '../config/load.ts'
import type { RunConfig } from '../config/schema.ts'
import { writeOutput } from '../exports/write.ts'
import { UsageError } from './args.ts'

/** Does the word the user gave name a URL rather than a config file? */
export const isUrl = (word: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(word)

/** The config of a URL run, or a UsageError naming the option that is wrong. */
export function urlRunConfig(q: QuickRun): { config: RunConfig; raw: Record<string, unknown> } {
  if (q.duration !== undefined && q.requests !== undefined)
    throw new UsageError('-d and -n: give a duration or a request count, not both')
  try {
    const raw = quickConfig(q)
    return { config: parseRunConfig(raw), raw }
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    const i = err.issues[0]
    throw new UsageError(`${quickFlag(i?.field ?? '')}: ${i?.message ?? err.message}`)
  }
}

/** `--save FILE.yaml`: the config as YAML, with a line saying how it was made. */
export async function saveConfig(path: string, raw: Record<string, unknown>, dbPath: string): Promise<void> {
  const text = `# Made by cannonade run ${String((raw.targets as { url: string }[])[0]!.url)}: run it with cannonade run ${path}\n${stringify(raw, { lineWidth: 0, singleQuote: true })}`
  await writeOutput(path, [text], { dbPath, field: '--save' })
}
