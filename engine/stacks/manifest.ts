// The bundled target stacks as targets/stacks.json describes them: each stack's compose file,
// services, port, health path, limits and native command, the shared database and the load
// balancer. What the compose side (compose-project.ts), the native side (native.ts) and the
// contract tests (targets/contract/) know of a stack comes from here.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export interface ResourceLimit {
  cpus: number
  memory: string
}

export interface NativeBuild {
  /** argv; run in `cwd` (relative to the repo root). */
  command: string[]
  cwd: string
  /** Files or folders (repo-relative) whose changes make a rebuild necessary; `target` dirs are ignored. */
  inputs: string[]
  /** Files (repo-relative) the build produces; the build is skipped when all are newer than the inputs. */
  outputs: string[]
}

export interface NativeSpec {
  /** argv; a leading "node" means the Node running the launcher (it must strip types: >= 22.18). */
  command: string[]
  cwd: string
  build: NativeBuild | null
  /** Defaults for the server's environment; PORT and DATABASE_URL are set by the launcher. */
  env: Record<string, string>
}

export interface StackSpec {
  name: string
  description: string
  runtime: 'node' | 'java'
  composeFile: string
  project: string
  appService: string
  dbService: string
  /** Host port the compose stack publishes the app on, and the env var that overrides it. */
  port: number
  portEnv: string
  /** Host port of its HTTPS listener when it runs with TLS=on (stacks that serve TLS only). */
  tlsPort?: number
  url: string
  healthPath: string
  limits: Record<string, ResourceLimit>
  native: NativeSpec
}

export interface Manifest {
  version: number
  seed: string
  /** The credentials and database every stack's PostgreSQL container is made with. */
  database: { user: string; password: string; name: string; port: number }
  /** The load balancer compose file added when a stack runs more than one replica. */
  balancer: { composeFile: string; service: string; portEnv: string; replicasEnv: string }
  /** The compose file added when a stack runs with TLS=on: it publishes the app's TLS port. */
  tls: { composeFile: string; portEnv: string }
  stacks: StackSpec[]
}

/** The repository root (this file lives in engine/stacks/). */
export const repoRoot: string = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

export function loadManifest(root: string = repoRoot): Manifest {
  return JSON.parse(fs.readFileSync(path.join(root, 'targets', 'stacks.json'), 'utf8')) as Manifest
}

export function getStack(name: string, manifest: Manifest = loadManifest()): StackSpec {
  const stack = manifest.stacks.find((s) => s.name === name)
  if (!stack) {
    throw new Error(`unknown stack ${name}; known: ${manifest.stacks.map((s) => s.name).join(', ')}`)
  }
  return stack
}
