// Settings from the environment and the limits every stack shares (targets/README.md).
// Keep names, defaults and limits equal to the Java stacks (targets/_java/common/.../Config.java, Api.java).

export interface Config {
  port: number
  host: string
  databaseUrl: string
  /** Connections per process; 0 = no pool: each request opens and closes its own connection. */
  poolSize: number
  hashIterations: number
  /** Chained services: hops to make over HTTP before a request is handled (0 = none). */
  chainDepth: number
  /** Where a hop goes; null = this server itself (http://127.0.0.1:PORT). */
  chainUrl: string | null
  /** HTTP2=on: PORT also takes HTTP/2 by prior knowledge (h2c), and TLS_PORT offers h2 by ALPN. */
  http2: boolean
  /** TLS=on: HTTPS on TLS_PORT too, with a certificate made at start-up (listen.ts). */
  tls: boolean
  tlsPort: number
}

export const MAX_BODY_BYTES = 1 << 20
export const MAX_PAYLOAD_BYTES = 10 << 20
export const MAX_COMPUTE_ITERATIONS = 1_000_000
export const MAX_SPLIT = 64
export const MAX_CHAIN_DEPTH = 16
export const MAX_LIMIT = 1000

/** `on` or `off` (empty or unset: off). */
function onOff(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name] ?? ''
  if (raw !== '' && raw !== 'on' && raw !== 'off')
    throw new Error(`${name} must be on or off, got ${JSON.stringify(raw)}`)
  return raw === 'on'
}

/**
 * Reads PORT, HOST, DATABASE_URL, POOL_SIZE, HASH_ITERATIONS, CHAIN_DEPTH, CHAIN_URL, HTTP2, TLS,
 * TLS_PORT; throws on a malformed value.
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      throw new Error(`${name} must be an integer between ${min} and ${max}, got ${JSON.stringify(raw)}`)
    }
    return Number(raw)
  }
  const chainUrl = env['CHAIN_URL'] || null
  if (chainUrl !== null && !/^http:\/\/[^/?#\s]+\/?$/.test(chainUrl)) {
    throw new Error(`CHAIN_URL must be http://host:port (no path), got ${JSON.stringify(chainUrl)}`)
  }
  return {
    port: int('PORT', 8080, 0, 65535),
    host: env['HOST'] || '0.0.0.0',
    databaseUrl: env['DATABASE_URL'] || 'postgres://cannonade:cannonade@127.0.0.1:5432/cannonade',
    poolSize: int('POOL_SIZE', 10, 0, 1000),
    hashIterations: int('HASH_ITERATIONS', 1000, 1, 10_000_000),
    chainDepth: int('CHAIN_DEPTH', 0, 0, MAX_CHAIN_DEPTH),
    chainUrl: chainUrl?.replace(/\/$/, '') ?? null,
    http2: onOff(env, 'HTTP2'),
    tls: onOff(env, 'TLS'),
    tlsPort: int('TLS_PORT', 8443, 0, 65535),
  }
}
