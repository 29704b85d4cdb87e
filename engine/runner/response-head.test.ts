// A response's header block read from its bytes: the framing RFC 9112 gives it, the fields a
// scenario reads, and what is wrong named; each case states what the bytes say.
import { describe, expect, it } from 'vitest'
import { parseHead, type Framing } from './response-head.ts'

const head = (text: string, all = false): Framing | string => {
  // The block inside a larger buffer: the parser reads only [start, end).
  const buf = Buffer.from(`junk${text}HTTP/1.1 999 after`, 'latin1')
  return parseHead(buf, 4, 4 + text.length, all)
}

describe('parseHead', () => {
  it('reads status, length and keep-alive whatever the fields’ case and whitespace', () => {
    for (const [text, want] of [
      [
        'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n',
        { status: 200, length: 2, keepAlive: true, chunked: false },
      ],
      [
        'HTTP/1.1 201 \r\ncontent-LENGTH:\t 17 \t\r\n\r\n',
        { status: 201, length: 17, keepAlive: true, chunked: false },
      ],
      [
        'HTTP/1.1 200 OK\nCONNECTION: Close\nContent-Length: 0\n\n',
        { status: 200, length: 0, keepAlive: false, chunked: false },
      ],
      [
        'HTTP/1.1 200 OK\r\nConnection: upgrade, close\r\nContent-Length: 0\r\n\r\n',
        { status: 200, length: 0, keepAlive: false, chunked: false },
      ],
      [
        'HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\n',
        { status: 200, length: 1, keepAlive: false, chunked: false },
      ],
      [
        'HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 1\r\n\r\n',
        { status: 200, length: 1, keepAlive: true, chunked: false },
      ],
      [
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n',
        { status: 200, length: -1, keepAlive: true, chunked: true },
      ],
      [
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n',
        { status: 200, length: -1, keepAlive: false, chunked: false },
      ],
      ['HTTP/1.1 200 OK\r\nServer: x\r\n\r\n', { status: 200, length: -1, keepAlive: false, chunked: false }],
      [
        'HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\nContent-Length: 9\r\n\r\n',
        { status: 304, length: 9, keepAlive: true, chunked: false },
      ],
    ] as const) {
      expect(head(text), JSON.stringify(text)).toMatchObject(want)
    }
  })

  it('gives only Server-Timing fields, or every field when asked; a folded line continues its field', () => {
    const text =
      'HTTP/1.1 200 OK\r\nServer: nginx\r\nSERVER-TIMING: app;dur=1.5\r\n  , db;dur=2\r\nX-Token:  abc \r\nContent-Length: 0\r\n\r\n'
    expect((head(text) as Framing).headers).toEqual(['SERVER-TIMING', 'app;dur=1.5 , db;dur=2'])
    expect((head(text, true) as Framing).headers).toEqual([
      'Server',
      'nginx',
      'SERVER-TIMING',
      'app;dur=1.5 , db;dur=2',
      'X-Token',
      'abc',
      'Content-Length',
      '0',
    ])
  })

  it('names what is wrong', () => {
    for (const [text, want] of [
      ['HTTP/2 200 OK\r\n\r\n', 'not an HTTP/1.x status line: "HTTP/2 200 OK"'],
      ['HTTP/1.1 20x OK\r\n\r\n', 'not an HTTP/1.x status line'],
      ['HTTP/1.1 200OK\r\n\r\n', 'not an HTTP/1.x status line'],
      ['HTTP/1.1 099 Low\r\n\r\n', 'status 99 is not a status code'],
      ['HTTP/1.1 200 OK\r\n folded\r\n\r\n', 'a folded line before any header field'],
      ['HTTP/1.1 200 OK\r\nno colon here\r\n\r\n', 'a header line without a name: "no colon here"'],
      ['HTTP/1.1 200 OK\r\n: value\r\n\r\n', 'a header line without a name'],
      ['HTTP/1.1 200 OK\r\nBad Name: v\r\n\r\n', 'a header name that is not a token: "Bad Name"'],
      ['HTTP/1.1 200 OK\r\nX\xe9: v\r\n\r\n', 'a header name that is not a token'],
      ['HTTP/1.1 200 OK\r\nContent-Length: 1e3\r\n\r\n', 'Content-Length "1e3" is not a length'],
      ['HTTP/1.1 200 OK\r\nContent-Length: 1, 1\r\n\r\n', 'is not a length'],
      ['HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', 'two different Content-Lengths'],
    ] as const) {
      const got = head(text)
      expect(typeof got, JSON.stringify(text)).toBe('string')
      expect(got).toContain(want)
    }
  })
})
