import { describe, expect, it } from 'vitest'
import { startTarget } from '../testing/target.ts'
import { runConfig, tempDbPath } from '../testing/run-config.ts'
import { openDb } from '../db/db.ts'
import { runStudy } from '../study/run-study.ts'
import { requestBody } from './body.ts'
import { configIssues } from '../testing/config.ts'
import { parseRunConfig } from './load.ts'
import { MAX_BODY_BYTES } from './schema.ts'

const target = (body: unknown, method = 'POST') => ({
  version: 1,
  name: 'body',
  targets: [{ name: 't', url: 'http://127.0.0.1:1/payload', method, body }],
  load: { connections: 1, duration: 1 },
})

const fieldsOf = configIssues

describe('generated request bodies', () => {
  it('are exactly size bytes: valid JSON from 2 bytes, text from 0, the same bytes every time', () => {
    for (const size of [2, 3, 11, 12, 13, 60, 61, 62, 100, 1000, 4096, 65_536]) {
      const { bytes, contentType } = requestBody({ size, kind: 'json' })
      expect(bytes?.length, `json ${size}`).toBe(size)
      expect(contentType).toBe('application/json')
      expect(() => void JSON.parse(bytes!.toString('latin1')), `json ${size} parses`).not.toThrow()
      expect(requestBody({ size, kind: 'json' }).bytes!.equals(bytes!)).toBe(true)
    }
    for (const size of [0, 1, 71, 72, 73, 1_000_000]) {
      const { bytes, contentType } = requestBody({ size, kind: 'text' })
      expect(bytes?.length, `text ${size}`).toBe(size)
      expect(contentType).toBe('text/plain; charset=utf-8')
      expect(/^[\x20-\x7e\n]*$/.test(bytes!.toString('latin1'))).toBe(true)
    }
    const big = requestBody({ size: MAX_BODY_BYTES, kind: 'json' }).bytes!
    expect(big.length).toBe(MAX_BODY_BYTES)
    expect((JSON.parse(big.toString('latin1')) as { items: unknown[] }).items.length).toBeGreaterThan(100_000)
    // A JSON body of records, not one long string: a service receiving it parses real structure.
    const doc = JSON.parse(requestBody({ size: 200, kind: 'json' }).bytes!.toString()) as { items: unknown[] }
    expect(doc.items.slice(0, 2)).toEqual([
      { id: 0, name: 'item 0', tags: ['red', 'large'], price: 0.5 },
      { id: 1, name: 'item 1', tags: ['red', 'large'], price: 1.5 },
    ])
    expect(requestBody('héllo').bytes?.length).toBe(6)
    expect(requestBody(null).bytes).toBeNull()
  })

  it('are bounded, with errors naming the field', () => {
    expect(fieldsOf(target({ size: 65_536, kind: 'json' }))).toEqual([])
    expect(parseRunConfig(target({ size: 10 })).targets[0]!.body).toEqual({ size: 10, kind: 'text' })
    expect(fieldsOf(target({ size: MAX_BODY_BYTES + 1, kind: 'json' }))).toEqual([
      'targets.0.body.size: must be at most 10485760 bytes (10 MiB)',
    ])
    expect(fieldsOf(target({ size: -1 }))).toEqual(['targets.0.body.size: must not be negative'])
    expect(fieldsOf(target({ size: 1.5 }))).toEqual(['targets.0.body.size: must be a whole number of bytes'])
    expect(fieldsOf(target({ size: 1, kind: 'json' }))).toEqual([
      'targets.0.body.size: a JSON body needs at least 2 bytes ({})',
    ])
    expect(fieldsOf(target({ size: 10, kind: 'xml' }))).toEqual([
      "targets.0.body.kind: must be 'json' or 'text'",
    ])
    expect(fieldsOf(target({ size: 10, extra: 1 }))).toHaveLength(1)
    expect(fieldsOf(target(42))[0]).toMatch(/^targets\.0\.body: must be a string, null, or \{ size/)
  })

  it('reach the target as generated, once per value of a body.size sweep', async () => {
    const server = await startTarget()
    try {
      const dbPath = tempDbPath()
      const sizes: number[] = []
      const { runs } = await runStudy(
        openDb(dbPath),
        dbPath,
        parseRunConfig({
          ...target({ size: 16, kind: 'json' }),
          targets: [
            { name: 't', url: `${server.url}/payload`, method: 'POST', body: { size: 16, kind: 'json' } },
          ],
          cooldownSeconds: 0,
          sweep: { path: 'targets.0.body.size', values: [100, 65_536] },
        }),
        {
          onRunStart: () => {
            sizes.push(server.bodies.length)
          },
        },
      )
      expect(runs.map((r) => r.summary.status)).toEqual(['done', 'done'])
      const first = server.bodies.slice(0, sizes[1])
      const second = server.bodies.slice(sizes[1])
      expect(first.length).toBeGreaterThan(10)
      expect(second.length).toBeGreaterThan(10)
      expect(new Set(first.map((b) => b.bytes))).toEqual(new Set([100]))
      expect(new Set(second.map((b) => b.bytes))).toEqual(new Set([65_536]))
      expect(new Set(server.bodies.map((b) => b.contentType))).toEqual(new Set(['application/json']))
      expect(server.lastBody?.equals(requestBody({ size: 65_536, kind: 'json' }).bytes!)).toBe(true)
      // A content-type the config sets wins over the generated one.
      const { summary } = await runConfig({
        ...target({ size: 10 }),
        targets: [
          {
            name: 't',
            url: server.url,
            method: 'PUT',
            headers: { 'Content-Type': 'x/y' },
            body: { size: 10 },
          },
        ],
        cooldownSeconds: 0,
      })
      expect(summary.status).toBe('done')
      expect(server.bodies.at(-1)).toEqual({ bytes: 10, contentType: 'x/y' })
    } finally {
      await server.close()
    }
  })
})
