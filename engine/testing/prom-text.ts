// Prometheus' text exposition format (version 0.0.4), read strictly enough for a test to trust what
// a target's /metrics says: every sample belongs to a family declared by a `# TYPE` line before it,
// names and labels follow the format's grammar, values parse as Prometheus parses them, and a
// histogram's buckets are cumulative with +Inf equal to its count.

export interface PromSample {
  name: string
  labels: Record<string, string>
  value: number
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(?:,|$)/y

function value(raw: string): number {
  if (raw === '+Inf') return Infinity
  if (raw === '-Inf') return -Infinity
  if (raw === 'NaN') return NaN
  const x = Number(raw)
  if (raw.trim() === '' || Number.isNaN(x)) throw new Error(`not a sample value: ${raw}`)
  return x
}

function labels(raw: string | undefined, line: string): Record<string, string> {
  const out: Record<string, string> = {}
  if (!raw) return out
  LABEL.lastIndex = 0
  while (LABEL.lastIndex < raw.length) {
    const m = LABEL.exec(raw)
    if (!m) throw new Error(`malformed labels in: ${line}`)
    out[m[1]!] = m[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
  }
  return out
}

/** The family a sample belongs to: a histogram's or summary's `_bucket`, `_sum`, `_count` are its own. */
function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name
  const base = name.replace(/_(bucket|sum|count)$/, '')
  const type = types.get(base)
  return type === 'histogram' || type === 'summary' ? base : undefined
}

/** Every sample of an exposition; throws naming the line on anything out of the format. */
export function parseExposition(text: string): PromSample[] {
  const types = new Map<string, string>()
  const out: PromSample[] = []
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    if (line.startsWith('#')) {
      const m = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line)
      if (m) {
        if (!NAME.test(m[1]!)) throw new Error(`bad metric name: ${line}`)
        types.set(m[1]!, m[2]!)
      }
      continue
    }
    const m = SAMPLE.exec(line)
    if (!m) throw new Error(`not a sample line: ${line}`)
    if (!familyOf(m[1]!, types)) throw new Error(`sample before its # TYPE line: ${line}`)
    out.push({ name: m[1]!, labels: labels(m[2], line), value: value(m[3]!) })
  }
  checkHistograms(out, types)
  return out
}

function checkHistograms(samples: readonly PromSample[], types: Map<string, string>): void {
  for (const [family, type] of types) {
    if (type !== 'histogram') continue
    const series = new Map<string, { le: number; n: number }[]>()
    for (const s of samples.filter((x) => x.name === `${family}_bucket`)) {
      const { le, ...rest } = s.labels
      if (le === undefined) throw new Error(`${family}_bucket without le`)
      const key = JSON.stringify(rest)
      series.set(key, [...(series.get(key) ?? []), { le: value(le), n: s.value }])
    }
    for (const [key, buckets] of series) {
      buckets.sort((a, b) => a.le - b.le)
      buckets.forEach((b, i) => {
        if (i > 0 && b.n < buckets[i - 1]!.n) throw new Error(`${family}${key}: buckets not cumulative`)
      })
      const count = samples.find((x) => x.name === `${family}_count` && JSON.stringify(x.labels) === key)
      const inf = buckets.at(-1)!
      if (inf.le !== Infinity || inf.n !== count?.value)
        throw new Error(`${family}${key}: +Inf bucket ${inf.n} is not its count ${count?.value}`)
    }
  }
}

/** The sum of the samples of `name` whose labels include `match`. */
export function sumOf(
  samples: readonly PromSample[],
  name: string,
  match: Record<string, string> = {},
): number {
  return samples
    .filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v))
    .reduce((a, s) => a + s.value, 0)
}
