// What an import takes and makes (engine/import/index.ts): requests a user already has (a HAR, curl
// commands, an OpenAPI 3 document) as a RunConfig with one scenario step per request.
import type { RunConfig } from '../config/schema.ts'

export const IMPORT_KINDS = ['har', 'curl', 'openapi'] as const
export type ImportKind = (typeof IMPORT_KINDS)[number]

/** The largest source an import reads: a HAR of a long session, not a disk image. */
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024

export interface ImportOptions {
  /** openapi: where the API runs; its paths are appended to it (required). */
  base?: string
  /** har: keep scripts, style sheets, images, fonts and media (left out by default). */
  keepStatic?: boolean
  /** har: keep requests to other sites than the page's, each site a target of its own. */
  keepThirdParty?: boolean
  /** har: keep a reload's If-None-Match, If-Modified-Since… (dropped by default: the server would answer 304). */
  keepConditional?: boolean
  /** The config's name (default: from the source). */
  name?: string
  /** What the source is called in notes and the YAML's header: a file name, "pasted text". */
  source?: string
}

/** A secret the import left out of the config, and where its `${variable}` stands. */
export interface ImportedSecret {
  target: string
  variable: string
  /** The environment variable a run reads its value from. */
  env: string
  /** Where it stands: `step "login" header Cookie`, `step "GET /me" query token`. */
  where: string[]
}

export interface ImportedScenario {
  /** The config made, as the engine's schema parsed it (engine/config/load.ts). */
  config: RunConfig
  /** The same config as YAML, without defaults, its notes as comments at the top. */
  yaml: string
  /** What the user should know: secrets left out, requests left out and why, values guessed. */
  notes: string[]
  secrets: ImportedSecret[]
}

/** One request as the source gave it, before it becomes a step (engine/import/steps.ts). */
export interface SourceRequest {
  method: string
  /** Absolute http(s) URL. */
  url: string
  /** In the order given; a name may repeat (HTTP/2 cookies, curl -H twice). */
  headers: [string, string][]
  body: string | null
  /** The status a recording got (HAR): a step expects it when it is not 2xx. */
  status?: number
  /** The source's own name for it (an OpenAPI operationId). */
  name?: string
  /** curl -k: accept the target's certificate whatever it is. */
  insecure?: boolean
  /** Headers, query parameters or cookies (by name) that hold a credential whatever their name. */
  credentials?: string[]
}

/** Requests from a source, and what the source's reader wants said about them. */
export interface ReadRequests {
  requests: SourceRequest[]
  notes: string[]
  /** The URL the requests' first party is on (a HAR's page); others are third parties. */
  firstParty?: string
  /** The config's name when none is given. */
  name: string
  /** The URL requests under it are relative to (an OpenAPI --base); otherwise their origin. */
  base?: string
}
