// The config in words (engine/report/sections.ts configWords), as the wizard's Review and the
// report's configuration table say it: the order of targets is only spoken of where there are
// several targets to order; each target's protocol is named, in the run page's words too.
import { describe, expect, it } from 'vitest'
import { parseRunConfig } from '../config/load.ts'
import { protocolWords } from '../metrics/units.ts'
import { openDb } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { buildReportHtml } from './html.ts'
import { configWords, targetLine, targetWords } from './sections.ts'

function config(targets: number, more: Record<string, unknown> = {}) {
  return parseRunConfig({
    version: 1,
    name: 'words',
    targets: Array.from({ length: targets }, (_, i) => ({
      name: `t${i}`,
      url: `http://127.0.0.1:${8000 + i}/`,
    })),
    load: { connections: 2, duration: 10 },
    ...more,
  })
}

describe('the schedule in words', () => {
  it('names no order for one target, whichever the config holds', () => {
    for (const schedule of ['interleaved', 'sequential']) {
      const words = configWords(config(1, { schedule, rounds: 3, cooldownSeconds: 5 })).schedule
      expect(words).toBe('3 rounds, one after another, 5 s cool-down between segments')
    }
    expect(configWords(config(1, { rounds: 1 })).schedule).toBe('1 round')
  })

  it('names the order of two targets', () => {
    expect(configWords(config(2, { schedule: 'interleaved', rounds: 3, cooldownSeconds: 5 })).schedule).toBe(
      'interleaved (A, B, A, B…), 3 rounds, 5 s cool-down between segments',
    )
    expect(configWords(config(2, { schedule: 'sequential', rounds: 2, cooldownSeconds: 0 })).schedule).toBe(
      'sequential (every round of A, then B), 2 rounds, 0 s cool-down between segments',
    )
  })
})

describe("a target's protocol in words", () => {
  const spoken = parseRunConfig({
    version: 1,
    name: 'protocols',
    targets: [
      { name: 'plain', url: 'http://127.0.0.1:8000/' },
      { name: 'clear', url: 'http://127.0.0.1:8001/', protocol: 'h2c', streams: 10 },
      { name: 'tls', url: 'https://127.0.0.1:8002/', protocol: 'h2' },
    ],
    load: { connections: 2, duration: 10 },
  })

  it('names every protocol, and the streams when more than one', () => {
    expect(spoken.targets.map(protocolWords)).toEqual([
      'HTTP/1.1',
      'HTTP/2 cleartext (h2c), 10 streams per connection',
      'HTTP/2 over TLS (h2)',
    ])
    // Review and the run page (targetLine), and the report's table (targetWords): the same words.
    expect(configWords(spoken).targets).toEqual([
      'plain: GET http://127.0.0.1:8000/ · HTTP/1.1',
      'clear: GET http://127.0.0.1:8001/ · HTTP/2 cleartext (h2c), 10 streams per connection',
      'tls: GET https://127.0.0.1:8002/ · HTTP/2 over TLS (h2)',
    ])
    expect(spoken.targets.map(targetLine)).toEqual(configWords(spoken).targets)
    expect(targetWords(spoken.targets[1]!)).toContain(
      '<span class="muted">·</span> HTTP/2 cleartext (h2c), 10 streams per connection',
    )
  })

  it("the report's configuration table says it, from the stored run's config", () => {
    const db = openDb(':memory:')
    const { runId } = insertFixtureRun(db, { targets: [{ name: 'one' }, { name: 'two' }] })
    db.prepare(
      "UPDATE runs SET config = json_set(config, '$.targets[1].protocol', 'h2c', '$.targets[1].streams', 8) WHERE id = ?",
    ).run(runId)
    const html = buildReportHtml(new HistoryStore(db), [runId])
    db.close()
    expect(html).toContain('<span class="muted">·</span> HTTP/1.1')
    expect(html).toContain('<span class="muted">·</span> HTTP/2 cleartext (h2c), 8 streams per connection')
  })
})
