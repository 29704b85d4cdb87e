// Every template in resources/templates/ is listed with its description, says which figure or table
// of which study it reproduces (in words a reader of this repository has: no outside documents), and
// parses. Each runs shortened against the demo target in templates.slow.test.ts, and against its
// own stacks under Docker in templates.docker.test.ts.
import { describe, expect, it } from 'vitest'
import { maxRounds } from '../config/rounds.ts'
import { MIN_ROUNDS } from '../metrics/compare.ts'
import { listTemplates } from './templates.ts'

const templates = listTemplates()

describe('templates', () => {
  it('one per experiment of each study, each naming its figure or table in its own words', () => {
    // The studies' experiments, and the HTTP/2 comparisons of protocols and of servers over HTTP/2.
    const prefixes = ['thesis-', 'phases-', 'nodescala-', 'soa-', 'marketplace', 'h2-']
    expect(templates.length).toBeGreaterThanOrEqual(20)
    for (const prefix of prefixes)
      expect(
        templates.some((t) => t.id.startsWith(prefix)),
        prefix,
      ).toBe(true)
    for (const t of templates) {
      expect(t.description.length, t.id).toBeGreaterThan(200)
      // A calibration is no study's experiment: the machine's own noise, one target under two names.
      if (t.id.startsWith('calibrate')) {
        expect(t.description, t.id).toMatch(/^A\/A calibration: one target under two names/)
        expect(new Set(t.config.targets.map((x) => x.url)).size, t.id).toBe(1)
        continue
      }
      expect(t.description, t.id).toMatch(
        /^The (Java vs Node\.js thesis|phased-client assignment|Node\.js multiprocessing paper|Tomcat vs WebLogic SOA thesis|marketplace performance report|HTTP\/2 comparison of this repository's protocol support)/,
      )
      expect(t.description, t.id).toMatch(
        /\b(figures?|tables?|tests?|load test|spawn rates|connection pooling|authentication|configuration|recorded (protocol )?run)\b/,
      )
      // How to make it as long as the study's, and nothing a reader of the repository cannot open.
      expect(t.description, t.id).toMatch(/As long as the /)
      expect(t.description, t.id).not.toMatch(/seed|\.\.\/|shared\/|start both stacks|stacks up/i)
      // A template names the stacks it runs on: the engine starts them.
      for (const target of t.config.targets) expect(target.stack, `${t.id}: ${target.name}`).toBeDefined()
    }
  })

  it('runs enough rounds for a comparison with an interval, in a random order when it has several targets', () => {
    for (const t of templates) {
      if (t.id.startsWith('h2-')) {
        // An HTTP/2 comparison speaks HTTP/2 to a stack started with HTTP2 (and TLS for h2) on.
        expect(
          t.config.targets.some((x) => x.protocol !== 'http1'),
          t.id,
        ).toBe(true)
        for (const x of t.config.targets) {
          if (x.protocol !== 'http1') expect(x.stack?.env['HTTP2'], `${t.id}: ${x.name}`).toBe('on')
          if (x.url.startsWith('https:'))
            expect([x.stack?.env['TLS'], x.insecure], `${t.id}: ${x.name}`).toEqual(['on', true])
        }
      }
      expect(maxRounds(t.config), t.id).toBeGreaterThanOrEqual(MIN_ROUNDS)
      if (t.config.targets.length > 1) expect(t.config.schedule, t.id).toBe('randomized')
      // Targets that are values of one series say so together.
      const marked = t.config.targets.filter((x) => x.series !== undefined)
      if (marked.length) expect(new Set(marked.map((x) => x.series!.name)).size, t.id).toBe(1)
    }
  })
})
