// Every validation message of a step has a place on the page: each of these drafts breaks fields
// of one step, the step is rendered (server-side, no browser needed) with the tracked messages,
// and every message of that step must have been asked for by a field that shows it; one no field
// asks for is listed by name. Plus the field names in words.
import { createElement, type FunctionComponent } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { Api } from '#engine/api/api.ts'
import { ApiProvider, type ApiEnv } from '../../api/context.tsx'
import { defaultDraft, stepOf, validate, type Draft, type Issues, type StepId } from './draft.ts'
import { fieldName, showIssues, TrackedIssues, unshown } from './issues.ts'
import { LoadStep } from './LoadStep.tsx'
import { emptyMonitor } from './monitorDraft.ts'
import { MonitorStep } from './MonitorStep.tsx'
import { emptyStep } from './scenarioDraft.ts'
import { TargetsStep } from './TargetsStep.tsx'

type StepProps = { draft: Draft; patch: () => void; issues: Issues }
const STEPS: Record<Exclude<StepId, 'review'>, FunctionComponent<StepProps>> = {
  targets: (p) => createElement(TargetsStep, { ...p, loadedTemplate: null, onTemplate: () => undefined }),
  load: LoadStep,
  monitoring: MonitorStep,
}

// Rendering runs no effects, so the Api is never called: an empty object stands in for it.
const env = {
  api: {} as Api,
  mode: 'web',
  desktop: null,
  connection: { get: () => 'open', subscribe: () => () => undefined },
  files: {},
} as unknown as ApiEnv

/** The step's messages no field asked for, after rendering the step with all of them shown. */
function unasked(d: Draft, step: Exclude<StepId, 'review'>, extra: Record<string, string> = {}) {
  const all = new Map([...validate(d).issues, ...Object.entries(extra)])
  const tracked = new TrackedIssues(all)
  renderToStaticMarkup(
    createElement(ApiProvider, {
      env,
      children: createElement(STEPS[step], { draft: d, patch: () => undefined, issues: tracked }),
    }),
  )
  const fields = [...all.keys()].filter((f) => stepOf(f) === step)
  return { fields, hidden: unshown(fields, tracked) }
}

function draft(change: (d: Draft) => void): Draft {
  const d = defaultDraft()
  d.targets[0] = { ...d.targets[0]!, url: 'http://127.0.0.1:1/' }
  change(d)
  return d
}

// [what is wrong, the step, the change]; each must give at least one message of that step.
const CASES: [string, Exclude<StepId, 'review'>, (d: Draft) => void][] = [
  ['no URL', 'targets', (d) => (d.targets[0]!.url = '')],
  ['an ftp URL', 'targets', (d) => (d.targets[0]!.url = 'ftp://x/')],
  ['no name', 'targets', (d) => (d.targets[0]!.name = '')],
  [
    'two targets with one name',
    'targets',
    (d) => d.targets.push({ ...d.targets[0]!, url: 'http://127.0.0.1:2/' }),
  ],
  ['a header name with a space', 'targets', (d) => (d.targets[0]!.headers = [{ name: 'a b', value: '1' }])],
  [
    'a body of −1 bytes',
    'targets',
    (d) => ((d.targets[0]!.method = 'POST'), (d.targets[0]!.generated = { size: -1, kind: 'json' })),
  ],
  [
    'a scenario step with no name, a bad path and status 99',
    'targets',
    (d) => (d.targets[0]!.steps = [{ ...emptyStep('', 'x'), expectStatus: 99 }]),
  ],
  [
    'a capture with a bad name',
    'targets',
    (d) =>
      (d.targets[0]!.steps = [
        { ...emptyStep('s', '/'), captures: [{ name: '1x', kind: 'json', expr: 'a' }] },
      ]),
  ],
  ['0 connections', 'load', (d) => (d.load.connections = 0)],
  ['−1 s', 'load', (d) => (d.load.duration = -1)],
  ['0 requests', 'load', (d) => ((d.load.mode = 'requests'), (d.load.requests = 0))],
  ['pipelining 0, timeout 0', 'load', (d) => ((d.load.pipelining = 0), (d.load.timeoutMs = 0))],
  ['rate 0', 'load', (d) => ((d.load.rateLimited = true), (d.load.rate = 0))],
  ['rounds 0, cool-down −1', 'load', (d) => ((d.rounds = 0), (d.cooldownSeconds = -1))],
  [
    'a ramp from −1 to 10 000 in 0 s',
    'load',
    (d) => {
      d.load.profile.kind = 'ramp'
      d.load.profile.ramp = { ...d.load.profile.ramp, from: -1, to: 10_000, rampSeconds: 0 }
    },
  ],
  [
    'a stepped ramp of 0-connection steps',
    'load',
    (d) => {
      d.load.profile.kind = 'ramp'
      d.load.profile.ramp = {
        ...d.load.profile.ramp,
        stepped: true,
        stepSize: 0,
        stepSeconds: 0,
        pauseSeconds: -1,
      }
    },
  ],
  [
    'a burst of 0 s, −1 s idle, 0 connections',
    'load',
    (d) => {
      d.load.profile.kind = 'burst'
      d.load.profile.burst = { burstSeconds: 0, idleSeconds: -1, connections: 0 }
    },
  ],
  [
    'a phase with no name, share 0 and 0 s',
    'load',
    (d) => {
      d.load.profile.kind = 'phases'
      d.load.profile.phases[0] = {
        name: '',
        share: 0,
        by: 'duration',
        duration: 0,
        requests: undefined,
        warmup: false,
      }
    },
  ],
  [
    'a stage of 0 s to −1 connections',
    'load',
    (d) => {
      d.load.profile.kind = 'stages'
      d.load.profile.stages[0] = { duration: 0, connections: -1 }
    },
  ],
  [
    'a sweep of nothing',
    'load',
    (d) => (d.sweep = { ...d.sweep, enabled: true, path: 'load.nothing', values: '1, 2' }),
  ],
  [
    'a sweep value of 0 connections',
    'load',
    (d) => (d.sweep = { ...d.sweep, enabled: true, path: 'load.connections', values: '0' }),
  ],
  [
    'a docker monitor with no container',
    'monitoring',
    (d) => ((d.targets[0]!.monitor.kind = 'docker'), (d.targets[0]!.monitor.docker.container = '')),
  ],
  [
    'a docker monitor with an empty service',
    'monitoring',
    (d) => {
      d.targets[0]!.monitor.kind = 'docker'
      d.targets[0]!.monitor.docker = { ...emptyMonitor().docker, by: 'project', service: ' ' }
    },
  ],
  [
    'a process monitor on port 70 000',
    'monitoring',
    (d) => {
      d.targets[0]!.monitor.kind = 'process'
      d.targets[0]!.monitor.process = { by: 'port', pid: undefined, port: 70_000 }
    },
  ],
  [
    'a Cloud Foundry monitor with nothing filled in',
    'monitoring',
    (d) => (
      (d.targets[0]!.monitor.kind = 'cloudfoundry'),
      (d.targets[0]!.monitor.cloudfoundry.passwordEnv = '1x')
    ),
  ],
  [
    'a postgres monitor with a password in its URL',
    'monitoring',
    (d) => {
      d.targets[0]!.monitor.kind = 'postgres'
      d.targets[0]!.monitor.postgres = { by: 'url', stack: '', url: 'postgres://a:pw@h/db', passwordEnv: '' }
    },
  ],
  [
    'the first of two monitors with no stack',
    'monitoring',
    (d) => {
      d.targets[0]!.monitor.kind = 'docker'
      d.targets[0]!.monitor.docker = { ...emptyMonitor().docker, by: 'stack' }
      d.targets[0]!.monitor.more = [{ kind: 'postgres', stack: 'node-http' }]
    },
  ],
]

describe('every message of a step has a field that shows it', () => {
  it.each(CASES)('%s', (_what, step, change) => {
    const { fields, hidden } = unasked(draft(change), step)
    expect(fields.length, 'the case gives no message on its step').toBeGreaterThan(0)
    expect(hidden).toEqual([])
  })

  it('lists a message no field shows, by name', () => {
    const { hidden } = unasked(
      draft(() => undefined),
      'targets',
      { 'targets.0.series.value': 'must be a number' },
    )
    expect(hidden).toEqual(['targets.0.series.value'])
    expect(fieldName('targets.0.series.value')).toBe('target 1 › series › value')
  })
})

describe('tracked messages', () => {
  it('remembers what was asked, also through a group of messages', () => {
    const t = new TrackedIssues([
      ['a.b', 'x'],
      ['a.c', 'y'],
      ['d', 'z'],
    ])
    expect(t.get('a.b')).toBe('x')
    expect(t.get('nothing')).toBeUndefined()
    expect(showIssues(t, (f) => f.startsWith('d'))).toEqual([['d', 'z']])
    expect(unshown(['a.b', 'a.c', 'd'], t)).toEqual(['a.c'])
  })

  it('names fields in words, counting from 1', () => {
    expect(fieldName('targets.0.monitor.1.stack')).toBe('target 1 › monitor 2 › stack')
    expect(fieldName('load.profile.phases.2.share')).toBe('load › profile › phase 3 › share')
    expect(fieldName('sweep.values.0')).toBe('sweep › value 1')
    expect(fieldName('')).toBe('the run')
  })
})
