// What a monitor's sample may hold before it is stored, the same for every kind (docker, process,
// Cloud Foundry, PostgreSQL, Prometheus, Kubernetes, the generator): the values come from servers
// and files outside the program (a Prometheus answering 1e300, a metrics API's quantity "1e400", a
// pod named with a megabyte of control characters, a database answering text for a count), and one
// value resource_samples' STRICT columns refuse would otherwise fail its insert. A value out of
// range is no reading (null), a sample without a usable time or instance is left out, and each
// problem is said once per monitor, in words that hold no value (the warnings stay few).
import type { ResourceSample, SampleSource } from './types.ts'

export const SAMPLE_BOUNDS = {
  /** Distinct instances one monitor may report in a run: series, pods, containers, states. */
  instances: 256,
  /** Characters of an instance or a state (longer ones are cut, control characters replaced). */
  text: 200,
  /** A named series' name (Prometheus' grammar, as engine/config/schema-monitor.ts takes it). */
  metric: /^[A-Za-z_][A-Za-z0-9_]{0,63}$/,
  /** 100 = one core: ten thousand cores. */
  cpuPercent: 1e6,
  cores: 1e4,
  /** Bytes and counts are whole numbers SQLite's INTEGER and a double both hold exactly. */
  bytes: Number.MAX_SAFE_INTEGER,
  connections: 1e9,
  /** A named series' value: any finite number of at most this size. */
  value: 1e18,
  /** How far before the recorder began, and after now, a sample's time may be. */
  pastMs: 60_000,
  futureMs: 60_000,
}

/** Every source a sample may come from. */
export const SAMPLE_SOURCES: readonly SampleSource[] = [
  'docker',
  'process',
  'cloudfoundry',
  'postgres',
  'prometheus',
  'kubernetes',
  'generator',
]
const SOURCES = new Set(SAMPLE_SOURCES)

/** The time window a sample's `t` (epoch ms) must lie in. */
export interface SampleWindow {
  fromMs: number
  toMs: number
}

export interface CheckedSample {
  /** The sample as it may be stored, or null when it is left out. */
  sample: ResourceSample | null
  /** What was wrong, in words without values (one warning per distinct problem). */
  problems: string[]
}

/** Control characters (C0, DEL, C1, line and paragraph separators) as '?', cut to `max` characters. */
export function printableText(s: string, max: number): string {
  // Cut first: a megabyte-long name costs no more than a short one.
  const cut = s.length > max ? `${s.slice(0, max - 1)}…` : s
  // eslint-disable-next-line no-control-regex
  return cut.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '?')
}

type Problems = string[]

/** A reading in [min, max], else null (said once in `p`); `whole` rounds it to an integer. */
function reading(
  v: unknown,
  field: string,
  range: [number, number],
  p: Problems,
  whole = false,
): number | null {
  if (v === null || v === undefined) return null
  if (typeof v !== 'number' || !Number.isFinite(v) || v < range[0] || v > range[1]) {
    p.push(`${field} values that were not numbers from ${range[0]} to ${range[1]} were left out (no reading)`)
    return null
  }
  return whole ? Math.round(v) : v
}

function label(v: unknown, field: string, p: Problems, nullable: boolean): string | null | undefined {
  if (v === null && nullable) return null
  if (typeof v !== 'string' || v === '') {
    p.push(`samples without ${field === 'instance' ? 'an' : 'a'} ${field} were left out`)
    return undefined
  }
  const clean = printableText(v, SAMPLE_BOUNDS.text)
  if (clean !== v)
    p.push(`${field}s with control characters or over ${SAMPLE_BOUNDS.text} characters were shortened`)
  return clean
}

/** A sample made fit to store (see the header), or left out with the reasons. */
export function checkSample(raw: ResourceSample, window: SampleWindow): CheckedSample {
  const p: Problems = []
  const s = raw as Partial<Record<keyof ResourceSample, unknown>>
  if (typeof s.t !== 'number' || !Number.isFinite(s.t) || s.t < window.fromMs || s.t > window.toMs)
    return {
      sample: null,
      problems: ['samples stamped outside the run (a time that is no number, or far from now) were left out'],
    }
  if (typeof s.source !== 'string' || !SOURCES.has(s.source as SampleSource) || typeof s.target !== 'string')
    return { sample: null, problems: ['samples of an unknown source or target were left out'] }
  const instance = label(s.instance, 'instance', p, false)
  if (instance === undefined || instance === null) return { sample: null, problems: p }
  const state = label(s.state, 'state', p, true)
  let metric: string | null = null
  if (s.metric !== undefined && s.metric !== null) {
    if (typeof s.metric !== 'string' || !SAMPLE_BOUNDS.metric.test(s.metric))
      return {
        sample: null,
        problems: ['series whose name is not a series name (letters, digits, _; 64 at most) were left out'],
      }
    metric = s.metric
  }
  const sample: ResourceSample = {
    t: s.t,
    source: s.source as SampleSource,
    target: s.target,
    instance,
    cpuPercent: reading(s.cpuPercent, 'cpuPercent', [0, SAMPLE_BOUNDS.cpuPercent], p),
    memoryBytes: reading(s.memoryBytes, 'memoryBytes', [0, SAMPLE_BOUNDS.bytes], p, true),
    memoryLimitBytes: reading(s.memoryLimitBytes, 'memoryLimitBytes', [0, SAMPLE_BOUNDS.bytes], p, true),
    cpuLimit: reading(s.cpuLimit, 'cpuLimit', [0, SAMPLE_BOUNDS.cores], p),
    state: state ?? null,
    connections: reading(s.connections, 'connections', [0, SAMPLE_BOUNDS.connections], p, true),
    ...(s.connectionLimit !== undefined
      ? {
          connectionLimit: reading(
            s.connectionLimit,
            'connectionLimit',
            [0, SAMPLE_BOUNDS.connections],
            p,
            true,
          ),
        }
      : {}),
    ...(metric !== null
      ? { metric, value: reading(s.value, 'value', [-SAMPLE_BOUNDS.value, SAMPLE_BOUNDS.value], p) }
      : {}),
  }
  return { sample, problems: [...new Set(p)] }
}

/**
 * One monitor's instances in a run: the first SAMPLE_BOUNDS.instances it reports are kept, later
 * new ones are left out (a query matching 20,000 series, a namespace of 20,000 pods): `admit`
 * says whether this instance is kept.
 */
export function instanceLimit(max = SAMPLE_BOUNDS.instances): { admit(instance: string): boolean } {
  const seen = new Set<string>()
  return {
    admit(instance) {
      if (seen.has(instance)) return true
      if (seen.size >= max) return false
      seen.add(instance)
      return true
    },
  }
}
