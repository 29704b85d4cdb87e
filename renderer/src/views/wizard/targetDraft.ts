// One target of the wizard's draft: what its form holds, a new one, and the RunConfig target it
// becomes (draft.ts puts the targets into the whole document).
import { clean, type Num } from './clean.ts'
import { expectInput } from './expectDraft.ts'
import { emptyMonitor, monitorInput, type MonitorDraft } from './monitorDraft.ts'
import {
  noThink,
  stepInput,
  thinkInput,
  type Method,
  type StepDraft,
  type ThinkDraft,
} from './scenarioDraft.ts'

/** The stack a template's target runs on (kept as it is; a sweep may change its env). */
export interface StackDraft {
  name: string
  native: boolean
  env: Record<string, string | number>
  replicas: number
}

export interface TargetDraft {
  name: string
  url: string
  method: Method
  headers: { name: string; value: string }[]
  body: string
  /** A body generated before the run instead of `body`: size in bytes, JSON or text. */
  generated: { size: Num; kind: 'json' | 'text' } | null
  insecure: boolean
  /** TLS session resumption on reconnects (`tls: { resume: true }`); an https:// URL only. */
  tlsResume: boolean
  /** The statuses that count as answered ("200-299, 304"); '' for the default, 200–399 (expectDraft.ts). */
  expect: string
  /** How the target is spoken to (target/ProtocolField.tsx), and HTTP/2's streams per connection. */
  protocol: 'http1' | 'h2' | 'h2c'
  streams: Num
  monitor: MonitorDraft
  /** A scenario: these requests in order against the URL's origin; null for a plain target. */
  steps: StepDraft[] | null
  /** A pause after every response (a step's own think wins). */
  think: ThinkDraft
  stack: StackDraft | null
  /** This target is one value of a series (a template's task size): kept as it is. */
  series: { name: string; value: number } | null
  /** `${name}` of the steps read from a CANNONADE_SECRET_… variable at the run's start (an import's): kept as it is. */
  secrets: Record<string, string> | null
}

export function emptyTarget(name = '', url = ''): TargetDraft {
  return {
    name,
    url,
    method: 'GET',
    headers: [],
    body: '',
    generated: null,
    insecure: false,
    tlsResume: false,
    expect: '',
    protocol: 'http1',
    streams: 1,
    monitor: emptyMonitor(),
    steps: null,
    think: noThink(),
    stack: null,
    series: null,
    secrets: null,
  }
}

/**
 * The protocol a target is spoken to with, as the Targets step chooses it: back to HTTP/1.1, its
 * streams go back to one (HTTP/1.1 has none, and a hidden field must not refuse the run).
 */
export function chooseProtocol(t: TargetDraft, protocol: TargetDraft['protocol']): void {
  t.protocol = protocol
  if (protocol === 'http1') t.streams = 1
}

/** A target's form as a RunConfig target (what is left at its default is left out). */
export function targetInput(t: TargetDraft): Record<string, unknown> {
  return clean({
    name: t.name,
    url: t.url.trim(),
    method: t.method,
    headers: t.headers.length
      ? Object.fromEntries(t.headers.filter((h) => h.name !== '').map((h) => [h.name, h.value]))
      : undefined,
    body: t.generated
      ? { size: t.generated.size, kind: t.generated.kind }
      : t.body === ''
        ? undefined
        : t.body,
    expect: expectInput(t.expect),
    insecure: t.insecure || undefined,
    tls: t.tlsResume && t.url.trim().startsWith('https:') ? { resume: true } : undefined,
    protocol: t.protocol === 'http1' ? undefined : t.protocol,
    streams: t.streams === 1 ? undefined : t.streams,
    monitor: monitorInput(t.monitor),
    steps: t.steps ? t.steps.map(stepInput) : undefined,
    think: thinkInput(t.think),
    stack: t.stack ?? undefined,
    series: t.series ?? undefined,
    secrets: t.secrets ?? undefined,
  })
}
