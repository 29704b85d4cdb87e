// The load agent image (Dockerfile next to this file), built from this repository by the Docker
// engine that runs the agents, and tagged with a hash of everything it is built from: a change of
// the engine gives a new tag, an unchanged engine finds its image by the tag and builds nothing.
// The Docker and Swarm launchers share it. Its Node comes from the `build` stage of the targets'
// Node image (targets/_node/Dockerfile), so both are built the same way from the local
// debian:bookworm-slim without an image registry, with one Node version pin, and share its cache.
import { createHash } from 'node:crypto'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { ApiError } from '../../api/errors.ts'
import { runCommand, timeoutMessage, type CommandResult } from '../../command.ts'
import { repoRoot } from '../../stacks/manifest.ts'

export const AGENT_IMAGE_REPO = 'cannonade-agent'
/** Set on the image: which inputs it was built from (older ones are removed after a new build). */
const INPUTS_LABEL = 'org.cannonade.agent-inputs'
const NODE_DOCKERFILE = 'targets/_node/Dockerfile'
/** What the Node stage is built from (its context is targets/; it copies only these). */
const NODE_FILES = [NODE_DOCKERFILE, 'targets/_node/package.json', 'targets/_node/package-lock.json']
/** A first build fetches Debian's npm, Node and the npm packages: minutes, not hours. */
export const IMAGE_BUILD_TIMEOUT_MS = 20 * 60_000
const QUERY_TIMEOUT_MS = 30_000

export interface AgentImage {
  /** cannonade-agent:<16 hex digits of the inputs' hash> */
  tag: string
  /** The build context's files, relative to the repository (the context has the same layout). */
  files: string[]
}

/** package.json, the lock, bin/ and engine/ without tests, test helpers or documentation. */
function contextFiles(root: string): string[] {
  const files = ['package.json', 'package-lock.json', 'bin/cannonade.mjs']
  const walk = (dir: string) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const rel = `${dir}/${e.name}`
      if (e.isDirectory()) {
        if (rel !== 'engine/testing') walk(rel)
      } else if (e.isFile() && !e.name.endsWith('.test.ts') && !e.name.endsWith('.md')) files.push(rel)
    }
  }
  walk('engine')
  return files
}

/** The image this repository's agents run, named by the hash of its inputs. */
export function agentImage(root: string = repoRoot): AgentImage {
  const files = contextFiles(root)
  const hash = createHash('sha256')
  for (const f of [...NODE_FILES, ...files]) {
    hash.update(`${f}\0`)
    hash.update(readFileSync(join(root, f)))
    hash.update('\0')
  }
  return { tag: `${AGENT_IMAGE_REPO}:${hash.digest('hex').slice(0, 16)}`, files }
}

function failed(what: string, r: CommandResult, timeoutMs: number): ApiError {
  const why = timeoutMessage(r, what, timeoutMs) ?? `${what} failed:\n${r.lines.slice(-15).join('\n')}`
  return new ApiError('unavailable', why, 'agents.on')
}

const building = new Map<string, Promise<string>>()

/**
 * The agent image's tag, built first when the Docker engine does not have it. Concurrent callers
 * of one process share one build. `onLine` gets the build's steps.
 */
export function ensureAgentImage(
  o: { root?: string; onLine?: (line: string) => void } = {},
): Promise<string> {
  const image = agentImage(o.root ?? repoRoot)
  let pending = building.get(image.tag)
  if (!pending) {
    pending = build(image, o.root ?? repoRoot, o.onLine ?? (() => {}))
    building.set(image.tag, pending)
    pending.catch(() => building.delete(image.tag))
  }
  return pending
}

async function build(image: AgentImage, root: string, onLine: (line: string) => void): Promise<string> {
  const have = await runCommand('docker', ['image', 'inspect', '--format', '{{.Id}}', image.tag], {
    timeoutMs: QUERY_TIMEOUT_MS,
  })
  if (have.timedOut) throw failed('docker image inspect', have, QUERY_TIMEOUT_MS)
  if (have.code === 0) return image.tag
  onLine(`building the agent image ${image.tag} (once per change of the engine)`)
  const steps = (line: string) => {
    if (/^Step \d+\/\d+ :/.test(line)) onLine(`agent image: ${line}`)
  }
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-agent-image-'))
  try {
    const iidFile = join(dir, 'node.iid')
    const node = await runCommand(
      'docker',
      [
        'build',
        '--target',
        'build',
        '--iidfile',
        iidFile,
        '-f',
        join(root, NODE_DOCKERFILE),
        join(root, 'targets'),
      ],
      { timeoutMs: IMAGE_BUILD_TIMEOUT_MS, onLine: steps },
    )
    if (node.code !== 0)
      throw failed(`docker build (the Node stage, ${NODE_DOCKERFILE})`, node, IMAGE_BUILD_TIMEOUT_MS)
    const context = join(dir, 'context')
    for (const f of image.files) {
      mkdirSync(dirname(join(context, f)), { recursive: true })
      copyFileSync(join(root, f), join(context, f))
    }
    const agent = await runCommand(
      'docker',
      [
        'build',
        '--tag',
        image.tag,
        '--label',
        `${INPUTS_LABEL}=${image.tag.slice(AGENT_IMAGE_REPO.length + 1)}`,
        '--build-arg',
        `NODE_BUILD=${readFileSync(iidFile, 'utf8').trim()}`,
        '--file',
        join(context, 'engine/agents/launchers/Dockerfile'),
        context,
      ],
      { timeoutMs: IMAGE_BUILD_TIMEOUT_MS, onLine: steps },
    )
    if (agent.code !== 0) throw failed('docker build (the agent image)', agent, IMAGE_BUILD_TIMEOUT_MS)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  await removeOlder(image.tag)
  return image.tag
}

/** Agent images of earlier inputs go once a new one is built (one in use by a container stays). */
async function removeOlder(keep: string): Promise<void> {
  const list = await runCommand(
    'docker',
    ['images', '--filter', `label=${INPUTS_LABEL}`, '--format', '{{.Repository}}:{{.Tag}}'],
    { timeoutMs: QUERY_TIMEOUT_MS },
  )
  const old = list.lines.filter((t) => t.startsWith(`${AGENT_IMAGE_REPO}:`) && t !== keep)
  if (list.code === 0 && old.length)
    await runCommand('docker', ['rmi', ...old], { timeoutMs: QUERY_TIMEOUT_MS })
}
