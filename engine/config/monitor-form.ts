// What the wizard's monitor editor shows for each monitor kind of ./schema-monitor.ts, declared once
// beside the schema: the kind's name in the picker, its fields in rows (each a key of the spec, or
// a choice between keys of which the schema takes one), their labels, placeholders and hints, and
// which choice shows them. The renderer draws any kind from this with one editor
// (renderer/src/views/wizard/monitor/MonitorFields.tsx) and turns it into a spec and back with one
// pair of functions (monitorDraft.ts): a new kind is its schema and an entry here.
// monitor-form.test.ts holds each entry to its schema: every key a field or named in `omitted`.
import type { MonitorKind, PrometheusPreset } from './schema-monitor.ts'

/** Words that depend on where the app runs: the desktop app keeps secrets in Settings → Secrets. */
export type FormWords = string | { readonly desktop: string; readonly web: string }

interface FieldBase {
  /** The field's key in the draft, and in the spec unless `path` names another place. */
  readonly key: string
  readonly label: string
  /** Its data-testid after the monitor's own: `monitor-0-` + this. */
  readonly testId: string
  readonly hint?: FormWords
  /** Shown (and sent) only while these choices hold: `{ by: ['project', 'stack'] }`. */
  readonly when?: Readonly<Record<string, readonly string[]>>
  /** The schema's messages the field shows, the first there is (by default, the one at its path). */
  readonly messages?: readonly string[]
}

export interface TextForm extends FieldBase {
  readonly control: 'text'
  /** Where it goes in the spec ('auth.username'); the key by default. */
  readonly path?: string
  readonly placeholder?: string
  readonly initial?: string
  /**
   * How the typed text goes into the spec: as typed (the schema says what is wrong with it),
   * trimmed, trimmed and left out when empty ('optional'), or `a=b, c="d"` as a record ('labels').
   */
  readonly text?: 'trimmed' | 'optional' | 'labels'
}

export interface NumberForm extends FieldBase {
  readonly control: 'number'
  readonly path?: string
  readonly min?: number
  readonly step?: number
}

/** A checkbox: true goes into the spec, false is left out. */
export interface CheckForm extends FieldBase {
  readonly control: 'check'
  readonly path?: string
}

export interface SelectForm extends FieldBase {
  readonly control: 'select'
  /**
   * Where the value goes in the spec (the key by default), or null for a choice the spec has no key
   * for: which of the fields it shows (`when`) the spec gets ("select by: container or project").
   */
  readonly path?: string | null
  readonly options: readonly { readonly value: string; readonly label: string }[]
}

export type FieldForm = TextForm | NumberForm | CheckForm | SelectForm

export interface MonitorForm {
  /** The kind's name in the Resource source picker. */
  readonly label: string
  /** Rows of fields, in order; a row of checkboxes stands apart, any other is a grid. */
  readonly rows: readonly (readonly FieldForm[])[]
  /** A line under the fields. */
  readonly note?: FormWords
  /** Keys of the spec the editor leaves to a config file (kept by neither the draft nor "run again"). */
  readonly omitted: readonly string[]
}

/** What a field may say besides its key, label and test id. */
type Extra<F extends FieldForm> = Omit<F, 'key' | 'control' | 'label' | 'testId'>

/** A field declared in one line: its key, label and test id, then the rest; its types kept exact. */
const field =
  <C extends FieldForm['control']>(control: C) =>
  <const K extends string, const X extends Extra<Extract<FieldForm, { control: C }>>>(
    key: K,
    label: string,
    testId: string,
    extra: X = {} as X,
  ) =>
    ({ key, control, label, testId, ...extra }) as { key: K; control: C; label: string; testId: string } & X

const text = field('text')
const number = field('number')
const check = field('check')
/** A choice of the editor's that the spec has no key for: which of the fields it shows the spec gets. */
const choice = <
  const K extends string,
  const O extends SelectForm['options'],
  const X extends Omit<Extra<SelectForm>, 'path' | 'options'>,
>(
  key: K,
  label: string,
  testId: string,
  options: O,
  extra: X = {} as X,
) => field('select')(key, label, testId, { ...extra, path: null, options })

/** A Cloud Foundry secret's variable (named, never its value), shown for the grant that reads it. */
const authSecret = <const K extends string>(
  key: K,
  label: string,
  testId: string,
  initial: string,
  grant: string,
) => text(key, label, testId, { text: 'optional', path: `auth.${key}`, initial, when: { grant: [grant] } })

const PRESETS = [
  { value: 'container', label: 'container (cAdvisor: CPU, working set, limits)' },
  { value: 'host', label: "host (node_exporter: the whole machine's CPU and memory, every process)" },
  { value: 'jvm', label: 'JVM (CPU, RSS, heap, GC pauses, threads)' },
  { value: 'nodejs', label: 'Node.js (CPU, RSS, heap, event-loop lag)' },
] as const satisfies readonly { value: PrometheusPreset; label: string }[]

export const MONITOR_FORMS = {
  docker: {
    label: 'Docker container / compose project',
    rows: [
      [
        choice('by', 'Select by', 'docker-by', [
          { value: 'container', label: 'container name or id' },
          { value: 'project', label: 'compose project' },
          { value: 'stack', label: 'bundled stack' },
        ]),
        text('container', 'Container', 'container', {
          placeholder: 'cannonade-node-http-app-1',
          when: { by: ['container'] },
        }),
        text('project', 'Project', 'project', {
          when: { by: ['project'] },
          messages: ['project', 'container'],
        }),
        text('stack', 'Stack', 'stack', {
          placeholder: 'node-http',
          when: { by: ['stack'] },
          messages: ['stack', 'container'],
        }),
        text('service', 'Service (optional)', 'service', {
          text: 'optional',
          when: { by: ['project', 'stack'] },
        }),
      ],
      [check('processes', "Each process apart (a cluster's workers, as top shows them)", 'processes')],
    ],
    omitted: ['socketPath'],
  },
  process: {
    label: 'Local process (PID or port)',
    rows: [
      [
        choice('by', 'Select by', 'process-by', [
          { value: 'port', label: 'listening port' },
          { value: 'pid', label: 'process id' },
        ]),
        number('port', 'Port', 'port', {
          min: 1,
          step: 1,
          when: { by: ['port'] },
          messages: ['port', 'pid'],
        }),
        number('pid', 'PID', 'pid', { min: 1, step: 1, when: { by: ['pid'] } }),
      ],
    ],
    omitted: ['tree'],
  },
  cloudfoundry: {
    label: 'Cloud Foundry app',
    rows: [
      [
        text('api', 'API endpoint', 'cf-api', { placeholder: 'https://api.cf.example.com' }),
        text('app', 'App', 'cf-app'),
        text('space', 'Space (optional)', 'cf-space', { text: 'optional' }),
      ],
      [
        field('select')('grant', 'Sign in with', 'cf-grant', {
          path: 'auth.grant',
          options: [
            { value: 'password', label: 'user and password' },
            { value: 'refresh', label: 'refresh token' },
            { value: 'token', label: 'pasted `cf oauth-token`' },
          ],
        }),
        text('username', 'User', 'cf-user', { path: 'auth.username', when: { grant: ['password'] } }),
        authSecret('passwordEnv', 'Password from secret', 'cf-password-env', 'CF_PASSWORD', 'password'),
        authSecret(
          'refreshTokenEnv',
          'Refresh token from secret',
          'cf-refresh-env',
          'CF_REFRESH_TOKEN',
          'refresh',
        ),
        authSecret('tokenEnv', 'Token from secret', 'cf-token-env', 'CF_TOKEN', 'token'),
      ],
      [check('skipTlsVerify', 'Skip TLS verification', 'cf-skip-tls')],
    ],
    note: {
      desktop:
        'Secrets never go into the run config: it names them. Set their values in Settings → Secrets (kept encrypted by the OS).',
      web: 'Secrets never go into the run config: it names them. In web mode, export them in the environment of `cannonade serve`.',
    },
    omitted: ['auth.uaa', 'auth.clientId'],
  },
  postgres: {
    label: 'PostgreSQL connections (pg_stat_activity)',
    rows: [
      [
        choice('by', 'Database of', 'pg-by', [
          { value: 'stack', label: 'a bundled stack' },
          { value: 'url', label: 'a postgres:// URL' },
        ]),
        text('stack', 'Stack', 'pg-stack', {
          placeholder: 'node-http',
          when: { by: ['stack'] },
          messages: ['stack', 'url'],
        }),
        text('url', 'URL (no password)', 'pg-url', {
          placeholder: 'postgres://app@127.0.0.1:5432/shop',
          when: { by: ['url'] },
        }),
        text('passwordEnv', 'Password variable', 'pg-password-env', {
          text: 'optional',
          initial: 'PGPASSWORD',
          when: { by: ['url'] },
        }),
      ],
    ],
    omitted: [],
  },
  prometheus: {
    label: 'Prometheus (cAdvisor, node_exporter, JVM, Node.js, any PromQL)',
    rows: [
      [
        text('url', 'Prometheus URL', 'prom-url', { placeholder: 'http://127.0.0.1:9090' }),
        choice(
          'by',
          'Read',
          'prom-by',
          [
            { value: 'preset', label: 'a preset' },
            { value: 'query', label: 'a PromQL query' },
          ],
          { messages: ['query'] },
        ),
        text('labels', "Labels of the target's series", 'prom-labels', {
          text: 'labels',
          placeholder: 'job=shop, namespace="prod"',
        }),
      ],
      [
        field('select')('preset', 'Preset', 'prom-preset', { options: PRESETS, when: { by: ['preset'] } }),
        text('rateWindow', 'Rate window (optional)', 'prom-rate-window', {
          text: 'optional',
          placeholder: 'each scrape',
          hint: "Empty: each scrape's own rate, to follow the run's seconds; a window (at least two scrape intervals) smooths over it",
          when: { by: ['preset'] },
        }),
        text('query', 'PromQL', 'prom-query', {
          placeholder: 'sum(rate(http_requests_total{job="shop"}[1m]))',
          when: { by: ['query'] },
        }),
        text('name', 'Series name (optional)', 'prom-name', {
          text: 'optional',
          placeholder: 'requests_per_second',
          hint: 'Its unit suffix (_bytes, _seconds, _ratio) formats it',
          when: { by: ['query'] },
        }),
      ],
      [
        choice('token', 'Bearer token', 'prom-token', [
          { value: 'none', label: 'none' },
          { value: 'env', label: 'from a secret (variable)' },
          { value: 'file', label: 'from a file' },
        ]),
        text('tokenEnv', 'Token from secret', 'prom-token-env', {
          text: 'trimmed',
          initial: 'PROMETHEUS_TOKEN',
          hint: {
            desktop: 'Set its value in Settings → Secrets',
            web: 'Export it in the environment of `cannonade serve`',
          },
          when: { token: ['env'] },
        }),
        text('tokenFile', 'Token file (absolute path)', 'prom-token-file', {
          text: 'trimmed',
          placeholder: '/var/run/secrets/kubernetes.io/serviceaccount/token',
          when: { token: ['file'] },
        }),
      ],
      [check('skipTlsVerify', 'Skip TLS verification', 'prom-skip-tls')],
    ],
    omitted: [],
  },
  kubernetes: {
    label: 'Kubernetes pods (metrics.k8s.io)',
    rows: [
      [
        text('selector', 'Pods (label selector)', 'k8s-selector', { placeholder: 'app=shop,tier in (web)' }),
        text('namespace', 'Namespace (optional)', 'k8s-namespace', {
          text: 'optional',
          placeholder: "the kubeconfig context's",
        }),
      ],
    ],
    note: 'The engine reads the cluster from its kubeconfig (KUBECONFIG, else ~/.kube/config), as it does for load agents on Kubernetes; the cluster needs metrics-server.',
    omitted: [],
  },
} as const satisfies Record<MonitorKind, MonitorForm>

/** The fields of a kind's form, in order. */
export type FieldsOf<K extends MonitorKind> = (typeof MONITOR_FORMS)[K]['rows'][number][number]

type ValueOf<F> = F extends { control: 'check' }
  ? boolean
  : F extends { control: 'number' }
    ? number | undefined
    : F extends { control: 'select'; options: readonly { value: infer V }[] }
      ? V
      : string

/** What the editor keeps of a kind: a value per field, typed by its control (a choice by its options). */
export type FormValues<K extends MonitorKind> = { -readonly [F in FieldsOf<K> as F['key']]: ValueOf<F> }

/** Every field of a form, in order. */
export function fieldsOf(form: MonitorForm): FieldForm[] {
  return form.rows.flat()
}

/** Where a field's value goes in the spec; null for a choice the spec has no key for. */
export function pathOf(field: FieldForm): string | null {
  return field.path === undefined ? field.key : field.path
}

/** Whether a field shows (and is sent) with these values of its form's choices. */
export function shows(field: FieldForm, values: Readonly<Record<string, unknown>>): boolean {
  return Object.entries(field.when ?? {}).every(([key, allowed]) => allowed.includes(String(values[key])))
}

/** The words for this mode of the app. */
export function wordsFor(words: FormWords, mode: 'desktop' | 'web'): string {
  return typeof words === 'string' ? words : words[mode]
}
