// `cannonade agents manifest CONFIG --agents N --on kubernetes`: the Indexed Job that
// `cannonade run … --on kubernetes` would apply, as YAML, for users who apply it themselves
// (kubectl, a GitOps repository). Rendering is pure: no engine, no database, no cluster.
// The store's URL holds a password: by default the Job refers to a Secret the user creates; only
// --secret-from-env puts the URL (from CANNONADE_STORE_URL, never argv) into the output.
import { randomBytes } from 'node:crypto'
import {
  DEFAULT_AGENT_IMAGE,
  DEFAULT_STORE_SECRET,
  jobName,
  kubernetesAgents,
  manifestProblem,
  STORE_SECRET_KEY,
  toYaml,
  type KubernetesAgentsOptions,
} from '../agents/launchers/kubernetes-manifest.ts'
import { ConfigError } from '../config/errors.ts'
import { loadRunConfigFile, parseRunConfig } from '../config/load.ts'
import { writeOutput } from '../exports/write.ts'
import { helpText, parseFlags, UsageError } from './args.ts'
import { reportError } from './common.ts'
import type { CliCommand, CliContext } from './context.ts'

const MANIFEST_FLAGS = {
  agents: { type: 'number', value: 'N', help: "how many agents (default: the config's agents.count)" },
  on: { type: 'string', value: 'kubernetes', help: 'the platform to render for (kubernetes)' },
  run: {
    type: 'string',
    value: 'KEY',
    help: 'the run the agents join: the key `cannonade run` logs (default: a new key, printed)',
  },
  image: { type: 'string', value: 'IMG', help: `the agent image (default ${DEFAULT_AGENT_IMAGE})` },
  namespace: { type: 'string', value: 'NS', help: 'the namespace (default: default)' },
  secret: {
    type: 'string',
    value: 'NAME',
    help: `the Secret you created whose key "${STORE_SECRET_KEY}" holds the store's URL (default ${DEFAULT_STORE_SECRET})`,
  },
  'secret-from-env': {
    type: 'boolean',
    help: "render the Secret too, holding CANNONADE_STORE_URL: the output then holds the store's password",
  },
  'agent-cpu': { type: 'string', value: 'CPU', help: 'CPU each agent requests (default 1)' },
  'agent-memory': {
    type: 'string',
    value: 'SIZE',
    help: 'memory each agent requests and is limited to (default 512Mi)',
  },
  out: { type: 'string', value: 'FILE', help: 'write the manifest to FILE (default: stdout)' },
} as const

export const AGENTS_USAGE = helpText(
  `usage: cannonade agents manifest CONFIG --agents N --on kubernetes [--run KEY] [--image IMG]
         [--namespace NS] [--secret NAME | --secret-from-env] [--out FILE]`,
  MANIFEST_FLAGS,
)

/** The agent count the config allows: its split is checked like `cannonade run --agents N`'s. */
function agentCount(file: string, agents: number | undefined): number {
  const config = loadRunConfigFile(file)
  const count = agents ?? config.agents?.count
  if (count === undefined) throw new UsageError('give --agents N (the config has no agents.count)')
  if (!Number.isInteger(count) || count < 1) throw new UsageError('--agents must be a whole number from 1')
  parseRunConfig({ ...config, agents: { ...config.agents, count, on: 'kubernetes' } })
  return count
}

async function manifest(argv: string[], ctx: CliContext): Promise<number> {
  const { flags, positional } = parseFlags(argv, MANIFEST_FLAGS)
  if (positional.length !== 1)
    throw new UsageError(positional.length ? 'give one config file' : 'missing CONFIG file')
  if (flags.on !== 'kubernetes')
    throw new UsageError(`--on ${flags.on ?? '(missing)'}: manifests are rendered for kubernetes only`)
  if (flags.secret !== undefined && flags['secret-from-env'])
    throw new UsageError('--secret names your Secret; --secret-from-env renders one: give one of them')
  const count = agentCount(positional[0]!, flags.agents)
  const runKey = flags.run ?? randomBytes(8).toString('hex')
  const namespace = flags.namespace ?? 'default'
  let store: KubernetesAgentsOptions['store'] = { name: flags.secret ?? DEFAULT_STORE_SECRET }
  if (flags['secret-from-env']) {
    const url = process.env.CANNONADE_STORE_URL
    if (!url) throw new UsageError('--secret-from-env: CANNONADE_STORE_URL is not set')
    store = { url }
  }
  const options: KubernetesAgentsOptions = {
    runKey,
    count,
    namespace,
    store,
    ...(flags.image !== undefined ? { image: flags.image } : {}),
    ...(flags['agent-cpu'] !== undefined ? { cpu: flags['agent-cpu'] } : {}),
    ...(flags['agent-memory'] !== undefined ? { memory: flags['agent-memory'] } : {}),
  }
  const problem = manifestProblem(options)
  if (problem) throw new UsageError(problem)
  const yaml = toYaml(kubernetesAgents(options))
  if (flags.out !== undefined) {
    // Written as exports are (engine/exports/write.ts): never over the database or the data
    // folder's files, a device or FIFO directly, a file replaced whole by a new one, so a file
    // holding the password is its owner's alone, also when one was there before.
    await writeOutput(flags.out, [yaml], { dbPath: ctx.dbPath, mode: 'url' in store ? 0o600 : 0o644 })
  } else ctx.stdout.write(yaml)

  const notes = [
    `job ${jobName(runKey)}: ${count} agents join run ${runKey}${flags.run ? '' : ' (a new key: the engine coordinating the run must have started it; render for a run with --run KEY, the key `cannonade run` logs)'}`,
    'url' in store
      ? `the ${flags.out ? `file ${flags.out}` : 'output'} holds the store's password (Secret ${jobName(runKey)}-store): keep it out of logs and repositories`
      : `the agents read the store's URL from Secret ${store.name}, key ${STORE_SECRET_KEY}, in namespace ${namespace}: create it once, e.g. kubectl -n ${namespace} create secret generic ${store.name} --from-file=${STORE_SECRET_KEY}=FILE (or render it with --secret-from-env)`,
  ]
  for (const n of notes) ctx.stderr.write(`cannonade agents: ${n}\n`)
  return 0
}

export async function agentsCommand(argv: string[], ctx: CliContext): Promise<number> {
  const [sub, ...rest] = argv
  try {
    if (sub !== 'manifest')
      throw new UsageError(sub ? `unknown subcommand "${sub}"` : 'missing subcommand: manifest')
    return await manifest(rest, ctx)
  } catch (err) {
    if (err instanceof ConfigError) {
      ctx.stderr.write(
        `cannonade agents: invalid config\n${err.issues.map((i) => `  ${i.field || '(config)'}: ${i.message}`).join('\n')}\n`,
      )
      return 2
    }
    return reportError(err, ctx, AGENTS_USAGE, 'cannonade agents')
  }
}

export const agentsCli: CliCommand = { help: AGENTS_USAGE, run: agentsCommand }
