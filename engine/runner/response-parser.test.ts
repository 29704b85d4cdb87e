// The load client's response parser against byte sequences whose framing RFC 9112 fixes (issue 18,
// Must 2): each case states what a conforming client reads from the bytes.
import { describe, expect, it } from 'vitest'
import {
  KEEP_BODY,
  MAX_CAPTURE_BODY_BYTES,
  MAX_HEAD_BYTES,
  NO_BODY,
  ResponseParser,
  UNSOLICITED,
} from './response-parser.ts'

interface Seen {
  done: { status: number; bytes: number; keepAlive: boolean; body: string }[]
  failed: string[]
  begun: number
}

/** A parser whose requests all carry `flags`; `outstanding` of them are waiting (Infinity: any). */
function parser(flags = 0, outstanding = Infinity): { p: ResponseParser; seen: Seen } {
  const seen: Seen = { done: [], failed: [], begun: 0 }
  const p: ResponseParser = new ResponseParser({
    begin: () => (seen.begun++ < outstanding ? flags : UNSOLICITED),
    headers: () => {},
    complete: (status, bytes, keepAlive) => seen.done.push({ status, bytes, keepAlive, body: p.keptBody() }),
    fail: (reason) => seen.failed.push(reason),
  })
  return { p, seen }
}

const b = (s: string) => Buffer.from(s, 'latin1')

function feedAll(text: string, flags = 0): Seen {
  const { p, seen } = parser(flags)
  p.feed(b(text))
  return seen
}

describe('framing (RFC 9112 §6.3)', () => {
  it('Content-Length: the body is that many bytes, and the next response follows', () => {
    const seen = feedAll(
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 404 No\r\nContent-Length: 0\r\n\r\n',
    )
    expect(seen.done.map((d) => d.status)).toEqual([200, 404])
    expect(seen.done[0]!.bytes).toBe(40)
    expect(seen.done[0]!.keepAlive).toBe(true)
  })

  it('interim 100 and 103 responses are skipped: one final response per request', () => {
    const seen = feedAll(
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n' +
        'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
    )
    expect(seen.begun).toBe(1)
    expect(seen.done.map((d) => d.status)).toEqual([200])
  })

  it('no body after HEAD, 204 and 304, whatever Content-Length says', () => {
    const head = feedAll(
      'HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n',
      NO_BODY,
    )
    expect(head.done.length).toBe(2)
    const s = feedAll(
      'HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n',
    )
    expect(s.done.map((d) => d.status)).toEqual([204, 304])
  })

  it('HEAD, 204 and 304 keep their connection without a Content-Length, and with a Transfer-Encoding', () => {
    // They end at their header block (§6.3): nothing says the connection ends (issue 28).
    const bodiless =
      'HTTP/1.1 204 No Content\r\n\r\n' +
      'HTTP/1.1 304 Not Modified\r\nETag: "x"\r\n\r\n' +
      'HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n' +
      'HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n'
    const s = feedAll(bodiless)
    expect(s.failed).toEqual([])
    expect(s.done.map((d) => [d.status, d.keepAlive])).toEqual([
      [204, true],
      [304, true],
      [304, true],
      [204, true],
    ])
    const head = feedAll(
      'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nHTTP/1.1 200 OK\r\n\r\n',
      NO_BODY,
    )
    expect(head.done.map((d) => d.keepAlive)).toEqual([true, true])
    // What the Connection field or the version says still holds.
    const closing = feedAll(
      'HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\nHTTP/1.0 304 Not Modified\r\n\r\n' +
        'HTTP/1.0 204 No Content\r\nConnection: keep-alive\r\n\r\n',
    )
    expect(closing.done.map((d) => d.keepAlive)).toEqual([false, false, true])
    // A 200 without length or chunking is still close-delimited.
    const { p, seen } = parser()
    p.feed(b('HTTP/1.1 200 OK\r\n\r\nbody'))
    expect(p.end()).toBe('complete')
    expect(seen.done[0]!.keepAlive).toBe(false)
  })

  it('chunked with extensions and trailers; Transfer-Encoding wins over Content-Length', () => {
    const seen = feedAll(
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n' +
        '2;name=value;q="x"\r\nok\r\n3 ; ext\r\nabc\r\n0\r\nTrailer-A: 1\r\nTrailer-B: 2\r\n\r\n' +
        'HTTP/1.1 201 OK\r\nContent-Length: 0\r\n\r\n',
    )
    expect(seen.failed).toEqual([])
    expect(seen.done.map((d) => d.status)).toEqual([200, 201])
    // Both headers: a success, but the connection is not reused.
    expect(seen.done[0]!.keepAlive).toBe(false)
  })

  it('no length and no chunking: the body ends at close, a success', () => {
    const { p, seen } = parser()
    const head = 'HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n'
    p.feed(b(head + 'some body'))
    expect(seen.done).toEqual([])
    p.feed(b(' and more'))
    expect(p.end()).toBe('complete')
    expect(seen.done[0]).toMatchObject({ status: 200, keepAlive: false })
    expect(seen.done[0]!.bytes).toBe(head.length + 18)
  })

  it('Connection: close and HTTP/1.0 without keep-alive end the connection; HTTP/1.0 keep-alive does not', () => {
    const seen = feedAll(
      'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n' +
        'HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n' +
        'HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n' +
        'HTTP/1.1 200 OK\r\nConnection: x, Close\r\nContent-Length: 0\r\n\r\n',
    )
    expect(seen.done.map((d) => d.keepAlive)).toEqual([false, false, true, false])
  })

  it('bare LF line endings, a reason-less status line and folded headers are read', () => {
    const seen = feedAll('HTTP/1.1 200\nContent-Length: 2\nX-Folded: a\n  b\n\nokHTTP/1.1 200 OK\n\n')
    expect(seen.failed).toEqual([])
    expect(seen.done.length).toBe(1)
  })

  it('what breaks framing is a parse error naming it', () => {
    for (const [text, words] of [
      ['HTTP/1.1 abc OK\r\n\r\n', 'status line'],
      ['HTTX/1.1 200 OK\r\n\r\n', 'status line'],
      ['HTTP/1.1 200 OK\r\nContent-Length: 2e0\r\n\r\n', 'Content-Length'],
      ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok', 'different'],
      ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 'hexadecimal'],
      ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc\r\n', 'longer'],
      ['HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n', 'token'],
      ['HTTP/1.1 101 Switching Protocols\r\n\r\n', '101'],
    ] as const) {
      const seen = feedAll(text)
      expect(seen.done, text).toEqual([])
      expect(seen.failed.join(), text).toContain(words)
    }
  })

  it('a response with no request waiting is a parse error, never an answer', () => {
    const { p, seen } = parser(0, 1)
    p.feed(b('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'))
    expect(seen.done.length).toBe(1)
    expect(seen.failed[0]).toContain('no request')
  })
})

describe('responses split anywhere', () => {
  const stream =
    'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello' +
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=1\r\nabc\r\n0\r\nT: v\r\n\r\n' +
    'HTTP/1.1 204 No Content\r\nContent-Length: 4\r\n\r\n' +
    'HTTP/1.1 200 OK\nContent-Length: 1\n\nx'
  const whole = feedAll(stream)

  it('pipelined responses split at every byte: the same responses as in one piece', () => {
    expect(whole.done.length).toBe(4)
    for (let cut = 1; cut < stream.length; cut++) {
      const { p, seen } = parser()
      p.feed(b(stream.slice(0, cut)))
      p.feed(b(stream.slice(cut)))
      expect(seen.done, `cut at ${cut}`).toEqual(whole.done)
    }
    const { p, seen } = parser()
    for (const ch of stream) p.feed(b(ch))
    expect(seen.done).toEqual(whole.done)
  })

  it('read into one reused buffer: the bytes past each read are never read, split anywhere', () => {
    // What a socket's static read buffer holds past a read: an earlier read's bytes, line ends and
    // chunk sizes included, which must not end a header block, a chunk-size line or a body.
    const shared = Buffer.alloc(stream.length + 64, '\r\n0\r\n\r\nHTTP/1.1 500 X\r\n\r\n', 'latin1')
    const readInto = (p: ResponseParser, piece: string) => {
      shared.fill('\r\n0\r\n\r\nHTTP/1.1 500 X\r\n\r\n', 'latin1')
      shared.write(piece, 0, 'latin1')
      p.feed(shared, piece.length)
    }
    for (let cut = 1; cut < stream.length; cut++) {
      const { p, seen } = parser()
      readInto(p, stream.slice(0, cut))
      readInto(p, stream.slice(cut))
      expect(seen.done, `cut at ${cut}`).toEqual(whole.done)
    }
    const { p, seen } = parser()
    for (const ch of stream) readInto(p, ch)
    expect(seen.done).toEqual(whole.done)
  })

  it('a 100 KB header block across packets is read; one past the limit is a parse error', () => {
    const big =
      `HTTP/1.1 200 OK\r\n${'X-Filler: ' + 'a'.repeat(1000) + '\r\n'}`.repeat(1) +
      Array.from({ length: 100 }, (_, i) => `X-H${i}: ${'b'.repeat(1000)}\r\n`).join('') +
      'Content-Length: 2\r\n\r\nok'
    const { p, seen } = parser()
    for (let i = 0; i < big.length; i += 1460) p.feed(b(big.slice(i, i + 1460)))
    expect(seen.failed).toEqual([])
    expect(seen.done.length).toBe(1)
    const huge = 'HTTP/1.1 200 OK\r\n' + `X: ${'c'.repeat(1000)}\r\n`.repeat(MAX_HEAD_BYTES / 1000 + 10)
    const q = parser()
    for (let i = 0; i < huge.length; i += 65536) q.p.feed(b(huge.slice(i, i + 65536)))
    expect(q.seen.failed[0]).toContain('header block over')
  })
})

describe('bodies are counted, not kept', () => {
  it('a 1 GB body: every byte counted, memory flat', () => {
    const { p, seen } = parser()
    const size = 1024 ** 3
    const piece = Buffer.alloc(1024 * 1024, 120)
    const head = `HTTP/1.1 200 OK\r\nContent-Length: ${size}\r\n\r\n`
    p.feed(b(head))
    const before = process.memoryUsage().rss
    for (let sent = 0; sent < size; sent += piece.length) p.feed(piece)
    const growth = process.memoryUsage().rss - before
    expect(seen.done.length).toBe(1)
    expect(seen.done[0]!.bytes).toBe(size + head.length)
    expect(growth).toBeLessThan(64 * 1024 * 1024)
  })

  it('a step that captures keeps its body, up to the stated limit', () => {
    const kept = feedAll('HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n{"id":"42"}', KEEP_BODY)
    expect(kept.done[0]!.body).toBe('{"id":"42"}')
    const { p, seen } = parser(KEEP_BODY)
    p.feed(b(`HTTP/1.1 200 OK\r\nContent-Length: ${MAX_CAPTURE_BODY_BYTES + 1}\r\n\r\n`))
    p.feed(Buffer.alloc(MAX_CAPTURE_BODY_BYTES + 1, 120))
    expect(seen.done[0]!.body).toBe('')
    expect(p.bodyOverflow).toBe(true)
  })
})
