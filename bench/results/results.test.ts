// What `npm run results` (bench/results/main.ts) relies on without running anything: every
// experiment's template is there and stretches to the asked length with its shape kept, a check
// never writes where the full run's figures live, and the study CSV reads back as written.
import { describe, expect, it } from 'vitest'
import { compilePlan } from '../../engine/config/compile.ts'
import { parseRunConfig } from '../../engine/config/load.ts'
import { csvLine } from '../../engine/exports/write.ts'
import { listTemplates } from '../../engine/study/templates.ts'
import {
  atLength,
  dataDirOf,
  EXPERIMENTS,
  FULL,
  FULL_GOAL,
  roundSeconds,
  RUN_ORDER,
  runsOf,
  tagOf,
} from './experiments.ts'
import { parseCsv } from './figures.ts'
import { plannedSeconds } from './run.ts'

const templates = listTemplates()
const templateOf = (id: string) => templates.find((t) => t.id === id)!

/** Seconds of load a config's profile makes, its warm-up left out. */
function measured(config: ReturnType<typeof parseRunConfig>): number {
  const p = config.load.profile
  if (p.kind === 'phases')
    return p.phases.filter((ph) => !ph.warmup).reduce((s, ph) => s + (ph.duration ?? 0), 0)
  return (compilePlan(config.load).seconds ?? 0) - config.load.warmupSeconds
}

describe('the experiments', () => {
  it('are the six of issue 22, each on a template of resources/templates/, all in the run order once', () => {
    expect(EXPERIMENTS.map((e) => e.template).sort()).toEqual(
      [
        'marketplace-pooling',
        'nodescala-task-size',
        'phases-threads',
        'soa-big-bang',
        'thesis-java-vs-node',
        'thesis-pool-size',
      ].sort(),
    )
    for (const e of EXPERIMENTS) expect(templateOf(e.template), e.template).toBeDefined()
    expect([...RUN_ORDER].sort()).toEqual(EXPERIMENTS.map((e) => e.id).sort())
  })

  it.each([
    { name: 'rounds until precise × 30 s (the full length)', length: FULL },
    { name: '1 round × 2 s (a check)', length: { seconds: 2, rounds: 1 } },
  ])('stretch to $name: valid configs, the window that long, the shape kept', ({ length }) => {
    for (const e of EXPERIMENTS) {
      const t = templateOf(e.template)
      const config = parseRunConfig(atLength(t, e, length))
      if (typeof length.rounds === 'number') expect(config.rounds, e.id).toBe(length.rounds)
      else if (config.targets.length > 1)
        expect(config.rounds, e.id).toMatchObject({ min: 3, max: 40, precision: 2 })
      // One target: its runs are compared, not its targets; as many rounds as its budget holds.
      else expect(config.rounds, e.id).toBeGreaterThanOrEqual(3)
      // Several targets: each round in a fresh random order.
      if (config.targets.length > 1) expect(config.schedule, e.id).toBe('randomized')
      expect(measured(config), e.id).toBeCloseTo(length.seconds, 1)
      expect(config.tags, e.id).toEqual([...t.config.tags, 'results', tagOf(e.id)])
      // Everything else as the template says: targets, stacks, sweep, warm-ups, cooldowns.
      expect(config.targets, e.id).toEqual(t.config.targets)
      expect(config.sweep, e.id).toEqual(t.config.sweep)
      expect(config.load.warmupSeconds, e.id).toBe(t.config.load.warmupSeconds)
      expect(config.load.connections, e.id).toBe(t.config.load.connections)
      // The profile's times scale together, so its shape is kept: every time of it × the same k.
      const times = (c: typeof config) => {
        const p = c.load.profile
        if (p.kind === 'phases') return p.phases.map((ph) => ph.duration ?? 0)
        if (p.kind === 'ramp') return [p.rampSeconds ?? 0, p.stepSeconds ?? 0, p.holdSeconds, p.pauseSeconds]
        return []
      }
      const k = length.seconds / measured(t.config)
      times(config).forEach((x, i) => expect(x, `${e.id} time ${i}`).toBeCloseTo(times(t.config)[i]! * k, 2))
      expect(config.load.profile.kind, e.id).toBe(t.config.load.profile.kind)
      const fewest = typeof length.rounds === 'number' ? length.rounds : length.rounds.min
      expect(plannedSeconds(config), e.id).toBeGreaterThan(length.seconds * fewest)
    }
  })

  it('rounds until precise share the experiment’s budget over its runs, but leave room for their min rounds', () => {
    let total = 0
    for (const e of EXPERIMENTS) {
      const config = parseRunConfig(atLength(templateOf(e.template), e, FULL))
      const r = config.rounds
      const share = FULL_GOAL.budgetMinutes / runsOf(config)
      if (typeof r === 'number') {
        // One target: a fixed count that fits its share (at least the min rounds).
        expect(config.targets, e.id).toHaveLength(1)
        expect(r, e.id).toBeGreaterThanOrEqual(FULL_GOAL.min)
        if (r > FULL_GOAL.min) expect((r * roundSeconds(config)) / 60, e.id).toBeLessThanOrEqual(share)
      } else {
        const need = (r.min * roundSeconds(config)) / 60
        expect(r.budgetMinutes, e.id).toBeGreaterThanOrEqual(need)
        // The share, unless the min rounds need more.
        if (need * 1.25 < share) expect(r.budgetMinutes, e.id).toBeCloseTo(share, 0)
      }
      total += plannedSeconds(config)
    }
    // The whole `npm run results` is bounded: about six budgets of load (a round past each run's).
    expect(total / 60).toBeLessThan(EXPERIMENTS.length * FULL_GOAL.budgetMinutes * 1.5)
  })

  it('a shortened check has a data folder of its own, never the full run’s', () => {
    expect(dataDirOf(FULL)).toMatch(/artifacts\/results$/)
    expect(dataDirOf({ seconds: 2, rounds: 1 })).toMatch(/artifacts\/results-check-2s-1r$/)
    expect(dataDirOf({ seconds: 30, rounds: 1 })).not.toBe(dataDirOf(FULL))
    expect(dataDirOf({ seconds: 30, rounds: { ...FULL_GOAL, budgetMinutes: 2 } })).toMatch(
      /artifacts\/results-check-30s-p2-3-40r-2min$/,
    )
  })
})

describe('parseCsv', () => {
  it('reads back what the exports write: commas, quotes and line breaks in fields, empty cells', () => {
    const rows = [
      ['run_id', 'target', 'value', 'mean_us'],
      [7, 'split, in "4"', 'a\nb', null],
      [8, 'whole task', '300000', 1234.5],
    ]
    const text = rows.map((r) => csvLine(r)).join('')
    expect(parseCsv(text)).toEqual([
      { run_id: '7', target: 'split, in "4"', value: 'a\nb', mean_us: '' },
      { run_id: '8', target: 'whole task', value: '300000', mean_us: '1234.5' },
    ])
  })
})
