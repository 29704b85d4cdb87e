// A scenario target's steps as the wizard edits them (register → login → browse), to and from the
// config's StepSchema. Captures are rows here ({var, json|header, expression}), a record there.
import type { Step, Think } from '#engine/config/schema.ts'
import { clean, type Num } from './clean.ts'

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const
export type Method = (typeof METHODS)[number]

export interface CaptureDraft {
  name: string
  kind: 'json' | 'header'
  /** A dotted JSON path ("token", "data.id") or a response header name. */
  expr: string
}

/** Think time as typed: none, a fixed pause, or a random one within bounds (ms). */
export interface ThinkDraft {
  kind: 'none' | 'fixed' | 'range'
  ms: Num
  min: Num
  max: Num
}

export function noThink(): ThinkDraft {
  return { kind: 'none', ms: 500, min: 100, max: 500 }
}

export function thinkInput(t: ThinkDraft): unknown {
  return t.kind === 'none' ? undefined : t.kind === 'fixed' ? t.ms : { min: t.min, max: t.max }
}

export function thinkFromConfig(t: Think | undefined): ThinkDraft {
  if (t === undefined) return noThink()
  return typeof t === 'number'
    ? { ...noThink(), kind: 'fixed', ms: t }
    : { ...noThink(), kind: 'range', min: t.min, max: t.max }
}

export interface StepDraft {
  name: string
  method: Method
  path: string
  headers: { name: string; value: string }[]
  body: string
  captures: CaptureDraft[]
  expectStatus: Num
  /** Once per connection, before the steps that repeat (register, log in). */
  once: boolean
  /** A pause after this step's response, instead of the target's. */
  think: ThinkDraft
}

export function emptyStep(name: string, path = '/'): StepDraft {
  return {
    name,
    method: 'GET',
    path,
    headers: [],
    body: '',
    captures: [],
    expectStatus: undefined,
    once: false,
    think: noThink(),
  }
}

/** The first step of a new scenario requests what the target's URL did. */
export function firstStepFor(url: string): StepDraft {
  try {
    const u = new URL(url)
    return emptyStep('step-1', `${u.pathname}${u.search}`)
  } catch {
    return emptyStep('step-1')
  }
}

export function stepInput(s: StepDraft): Record<string, unknown> {
  return clean({
    name: s.name,
    method: s.method,
    path: s.path,
    headers: s.headers.length
      ? Object.fromEntries(s.headers.filter((h) => h.name !== '').map((h) => [h.name, h.value]))
      : undefined,
    body: s.body === '' || s.method === 'GET' || s.method === 'HEAD' ? undefined : s.body,
    capture: s.captures.length
      ? Object.fromEntries(
          s.captures.map((c) => [c.name, c.kind === 'json' ? { json: c.expr } : { header: c.expr }]),
        )
      : undefined,
    expectStatus: s.expectStatus,
    once: s.once || undefined,
    think: thinkInput(s.think),
  })
}

export function stepFromConfig(s: Step): StepDraft {
  return {
    name: s.name,
    method: s.method,
    path: s.path,
    headers: Object.entries(s.headers).map(([name, value]) => ({ name, value })),
    body: s.body ?? '',
    captures: Object.entries(s.capture).map(([name, c]) =>
      'json' in c ? { name, kind: 'json', expr: c.json } : { name, kind: 'header', expr: c.header },
    ),
    expectStatus: s.expectStatus,
    once: s.once,
    think: thinkFromConfig(s.think),
  }
}

/** Names used twice collapse into one record key: say so next to the second one. */
export function duplicateCaptures(s: StepDraft): Set<number> {
  const seen = new Set<string>()
  const dup = new Set<number>()
  s.captures.forEach((c, i) => {
    if (c.name !== '' && seen.has(c.name)) dup.add(i)
    seen.add(c.name)
  })
  return dup
}
