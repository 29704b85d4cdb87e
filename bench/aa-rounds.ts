// Records this machine's real per-round noise for the stopping rule's simulation
// (engine/metrics/stopping.test.ts): `cannonade calibrate` (an A/A run: one counting target, in a
// process of its own, under two names in a random order each round), its rounds written to
// engine/metrics/fixtures/aa-rounds[-hog].json. With --hog, a CPU hog is switched on and off at
// random (every 0.5–3 s) during the run, as a busy neighbour would. Not a test: run it again to
// record another machine (node bench/aa-rounds.ts [--hog] [--rounds N] [--duration S]).
import { readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'
import { main } from '../engine/cli/main.ts'
import { seededRandom } from '../engine/metrics/random.ts'
import { tempDbPath } from '../engine/testing/run-config.ts'
import { CpuHog, startTargetProcess } from '../engine/testing/target-process.ts'

const { values } = parseArgs({
  options: {
    hog: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '60' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
  },
})
const out = fileURLToPath(
  new URL(`../engine/metrics/fixtures/aa-rounds${values.hog ? '-hog' : ''}.json`, import.meta.url),
)
const target = await startTargetProcess({ delayMs: 4 })
const hog = new CpuHog()
const rand = seededRandom(27)
let timer: NodeJS.Timeout | null = null
const flip = () => {
  if (rand() < 0.5) hog.start()
  else hog.stop()
  timer = setTimeout(flip, 500 + rand() * 2500)
}
if (values.hog) flip()
const json = join(tempDbPath(), '..', 'calibrate.json')
const started = new Date().toISOString()
const load = loadavg()[0]
const code = await main([
  'calibrate',
  `${target.url}/aa`,
  '--rounds',
  values.rounds,
  '--duration',
  values.duration,
  '--connections',
  values.connections,
  '--cooldown',
  '1',
  '--db',
  join(json, '..', 'aa.db'),
  '--json',
  json,
])
if (timer) clearTimeout(timer)
hog.stop()
await target.close()
if (code !== 0) process.exit(code)
type Row = {
  target: string
  round: number
  p50: number
  p99: number
  throughput: number
  noise: { disturbed: boolean } | null
}
const doc = JSON.parse(readFileSync(json, 'utf8')) as { rounds: Row[]; roundSeconds: number }
const byRound = new Map<number, Row[]>()
for (const r of doc.rounds) byRound.set(r.round, [...(byRound.get(r.round) ?? []), r])
const rounds = [...byRound.values()]
  .filter((rs) => rs.length === 2)
  .map((rs) => {
    const [a, b] = ['A', 'A-again'].map((name) => rs.find((r) => r.target === name)!)
    const pick = (r: Row) => ({ p50: r.p50, p99: r.p99, throughput: r.throughput })
    return { round: a!.round, a: pick(a!), b: pick(b!), disturbed: rs.some((r) => r.noise?.disturbed) }
  })
const fixture = {
  what: 'Per-round p50 (µs), p99 (µs) and throughput (responses/s) of one counting target (4 ms service time, its own process) under two names, each round in a random order: real A/A noise of this machine',
  recorded: started,
  how: `bench/aa-rounds.ts${values.hog ? ' --hog' : ''}: ${values.rounds} rounds × ${values.duration} s, ${values.connections} connections, 1 s cool-down${values.hog ? ', a CPU hog switched on and off at random' : ''}`,
  cores: availableParallelism(),
  loadAverageAtStart: load,
  roundSeconds: doc.roundSeconds,
  hogSeconds: values.hog ? Math.round(hog.onMs / 1000) : 0,
  rounds,
}
writeFileSync(out, JSON.stringify(fixture, null, 2) + '\n')
console.log(`${rounds.length} rounds written to ${out}`)
