// The wizard's import: which kind a source looks like, and a HAR slimmed to what the import reads.
import { describe, expect, it } from 'vitest'
import { guessKind, slimHar } from './source.ts'

describe('guessKind', () => {
  it.each<[string, string | null, string | null]>([
    ['{"log":{"version":"1.2","entries":[]}}', null, 'har'],
    ['anything', 'session.HAR', 'har'],
    ["curl 'http://h/' -H 'a: b'", null, 'curl'],
    ['# from the browser\ncurl http://h/', null, 'curl'],
    ['openapi: 3.0.3\ninfo: {}', 'api.yaml', 'openapi'],
    ['{\n  "openapi": "3.1.0"', 'api.json', 'openapi'],
    ['swagger: "2.0"', null, 'openapi'],
    ['hello', null, null],
  ])('%j (%s) is %s', (text, name, kind) => {
    expect(guessKind(text, name)).toBe(kind)
  })
})

describe('slimHar', () => {
  it("drops the responses' bodies and WebSocket messages, keeping every request", () => {
    const request = { method: 'POST', url: 'http://h/a', headers: [], postData: { text: '{"a":1}' } }
    const har = {
      log: {
        entries: [
          {
            request,
            response: { status: 200, content: { mimeType: 'text/html', text: 'x'.repeat(100_000) } },
          },
          { request, response: { status: 101, content: {} }, _webSocketMessages: [{ data: 'y' }] },
        ],
      },
    }
    const slim = JSON.parse(slimHar(JSON.stringify(har))) as typeof har
    expect(slim.log.entries.map((e) => e.request)).toEqual([request, request])
    expect(slim.log.entries[0]!.response).toEqual({ status: 200, content: { mimeType: 'text/html' } })
    expect(slim.log.entries[1]).not.toHaveProperty('_webSocketMessages')
  })

  it('leaves what is no HAR as it is, for the engine to name what is wrong', () => {
    expect(slimHar('<html>')).toBe('<html>')
    expect(slimHar('{"a":1}')).toBe('{"a":1}')
  })
})
