// What the contract tests of the target stacks share (targets/contract.pg.test.ts runs the stacks
// natively on a throwaway PostgreSQL, targets/contract.docker.test.ts as compose stacks): the
// settings each stack is checked with, and which stacks to check. The stacks that serve HTTP/2 and
// TLS are started once more with both on, for the checks of protocols.ts.
import { loadManifest, type StackSpec } from '../../engine/stacks/manifest.ts'

export const manifest = loadManifest()

/**
 * Each stack runs the contract as it starts by default, and chained through itself twice
 * without a pool (every request then opens its own database connection at the last hop).
 */
export const VARIANTS: { label: string; env: Record<string, string>; hops: number; pooled: boolean }[] = [
  { label: '', env: {}, hops: 0, pooled: true },
  {
    label: ' (CHAIN_DEPTH=2, POOL_SIZE=0)',
    env: { CHAIN_DEPTH: '2', POOL_SIZE: '0' },
    hops: 2,
    pooled: false,
  },
]

/** The stacks that serve HTTP/2 and TLS when asked (a `tlsPort` in stacks.json), and how they are asked. */
export const servesProtocols = (stack: StackSpec): boolean => stack.tlsPort !== undefined
export const PROTOCOLS = { label: ' (HTTP2=on, TLS=on)', env: { HTTP2: 'on', TLS: 'on' } }

/** Workers or threads that share /compute?split=K: WORKERS (node-cluster), SPLIT_THREADS (Java), else one. */
export function lanesOf(stack: StackSpec): number {
  return Number(stack.native.env['WORKERS'] ?? stack.native.env['SPLIT_THREADS'] ?? 1)
}

export function pick(envName: string, fallback: string[]): StackSpec[] {
  const raw = process.env[envName]
  if (raw === 'none') return []
  const names = !raw ? fallback : raw === 'all' ? manifest.stacks.map((s) => s.name) : raw.split(',')
  return names.map((n) => {
    const stack = manifest.stacks.find((s) => s.name === n.trim())
    if (!stack) throw new Error(`${envName}: unknown stack ${n}`)
    return stack
  })
}
