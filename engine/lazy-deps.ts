// The heavy client libraries, loaded on their first use instead of when a module importing them
// loads: most commands never talk to Docker or PostgreSQL, and dockerode alone brings ssh2, gRPC and
// protobufjs (about 300 modules; `cannonade run` started in 1.2 s of CPU with them, bench/RESULTS.md).
// `require` caches: each library loads once per process.
import { createRequire } from 'node:module'
import type Dockerode from 'dockerode'
import type Pg from 'pg'
import type * as PgCopyStreams from 'pg-copy-streams'

const require = createRequire(import.meta.url)

/** dockerode's Docker class. */
export const dockerode = (): typeof Dockerode => require('dockerode') as typeof Dockerode

/** node-postgres. */
export const pgLib = (): typeof Pg => require('pg') as typeof Pg

/** pg-copy-streams (COPY FROM STDIN). */
export const pgCopyStreams = (): typeof PgCopyStreams => require('pg-copy-streams') as typeof PgCopyStreams
