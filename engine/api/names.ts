// Every operation and event of the Api, listed once (CONTRIBUTING.md, IPC and API rules). Channel
// names are `domain:action`; an event is the `onX` subscription of its domain. Everything that has
// to name each operation (the client, the preload bridge, the dispatcher, event forwarding, the
// argument schemas) is built from these two maps; channels.ts holds them against the Api interface.
// This file imports nothing, so the argument schemas can name channels without importing the Api.
export const channels = {
  runs: {
    validate: 'runs:validate',
    start: 'runs:start',
    stop: 'runs:stop',
    active: 'runs:active',
    machine: 'runs:machine',
    list: 'runs:list',
    get: 'runs:get',
    series: 'runs:series',
    resources: 'runs:resources',
    distribution: 'runs:distribution',
    samples: 'runs:samples',
    compare: 'runs:compare',
    delete: 'runs:delete',
    tag: 'runs:tag',
    note: 'runs:note',
    ledger: 'runs:ledger',
    prune: 'runs:prune',
  },
  studies: { list: 'studies:list', get: 'studies:get', templates: 'studies:templates' },
  targets: { probe: 'targets:probe' },
  scenarios: { import: 'scenarios:import' },
  stacks: { list: 'stacks:list', up: 'stacks:up', down: 'stacks:down', status: 'stacks:status' },
  monitor: { test: 'monitor:test' },
  exports: {
    pg: 'exports:pg',
    pgTest: 'exports:pgTest',
    csv: 'exports:csv',
    json: 'exports:json',
    junit: 'exports:junit',
    studyCsv: 'exports:studyCsv',
  },
  reports: { create: 'reports:create' },
  settings: { get: 'settings:get', set: 'settings:set' },
} as const

/** Subscriptions: `api.<domain>.<onX>(cb)` receives the events named here. */
export const events = {
  runs: {
    onProgress: 'runs:progress',
    onEnded: 'runs:ended',
    onWarning: 'runs:warning',
    onAgents: 'runs:agents',
  },
  stacks: { onLog: 'stacks:log' },
  exports: { onProgress: 'exports:progress' },
  reports: { onProgress: 'reports:progress' },
} as const

type Channels = typeof channels
type Events = typeof events
type ValueOf<T> = T[keyof T]

/** The Api's groups of operations (the compiler holds them to the Api's own, channels.ts). */
export type Domain = keyof Channels
export type Channel = { [D in keyof Channels]: ValueOf<Channels[D]> }[keyof Channels]
export type EventName = { [D in keyof Events]: ValueOf<Events[D]> }[keyof Events]

export const CHANNELS: readonly Channel[] = Object.values(channels).flatMap((ops) => Object.values(ops))
export const EVENT_NAMES: readonly EventName[] = Object.values(events).flatMap((evs) => Object.values(evs))

export function isChannel(name: string): name is Channel {
  return (CHANNELS as readonly string[]).includes(name)
}

export function isEventName(name: string): name is EventName {
  return (EVENT_NAMES as readonly string[]).includes(name)
}
