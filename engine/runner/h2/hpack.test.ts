// HPACK against known truths: RFC 7541's own examples (Appendix C.4: requests with Huffman
// coding, C.6: responses filling and evicting a 256-octet table) and the client's own blocks read
// back through the decoder, as a server's decoder would.
import { describe, expect, it } from 'vitest'
import { decodeHuffman, encodeHuffman } from './huffman.ts'
import { HpackDecoder, type HeaderSink } from './hpack.ts'
import { buildH2Request } from './request.ts'

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex')
const sink = (): HeaderSink => ({ status: 0, all: true, fields: [] })

describe('HPACK', () => {
  it('Huffman: RFC 7541 C.4.1 "www.example.com", and every octet round trip', () => {
    const b = hex('f1e3 c2e5 f23a 6ba0 ab90 f4ff')
    expect(decodeHuffman(b, 0, b.length)).toBe('www.example.com')
    expect(encodeHuffman('www.example.com')).toEqual(b)
    const all = String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i))
    const e = encodeHuffman(all)
    expect(decodeHuffman(e, 0, e.length)).toBe(all)
    // Padding that is not all ones, and EOS inside a string, are errors.
    expect(decodeHuffman(Buffer.from([0x00]), 0, 1)).toBeNull()
    expect(decodeHuffman(hex('ffffffff'), 0, 4)).toBeNull()
  })

  it('RFC 7541 C.6: three responses with Huffman coding, a 256-octet table that evicts', () => {
    const d = new HpackDecoder(256)
    const s = sink()
    // The table's size is 256: the block sets it first, as the RFC's decoder was told by SETTINGS.
    const first = Buffer.concat([
      hex('3fe101'), // size update to 256
      hex(
        '4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3',
      ),
    ])
    expect(d.decode(first, 0, first.length, s)).toBe(true)
    expect(s.status).toBe(302)
    expect(s.fields).toEqual([
      'cache-control',
      'private',
      'date',
      'Mon, 21 Oct 2013 20:13:21 GMT',
      'location',
      'https://www.example.com',
    ])
    const second = hex('4883 640e ff c1 c0 bf')
    expect(d.decode(second, 0, second.length, s)).toBe(true)
    expect(s.status).toBe(307)
    expect(s.fields[3]).toBe('Mon, 21 Oct 2013 20:13:21 GMT')
    const third = hex(
      '88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07',
    )
    expect(d.decode(third, 0, third.length, s)).toBe(true)
    expect(s.status).toBe(200)
    expect(s.fields).toContain('foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1')
    expect(d.entries).toBe(3)
  })

  it('a client request read back: first block indexes, the next refers to the table, the id written in place', () => {
    const r = buildH2Request({
      method: 'GET',
      url: new URL('http://127.0.0.1:8080/ads?limit=20'),
      headers: { Accept: 'application/json', Connection: 'keep-alive' },
      body: null,
      correlationHeader: 'X-Correlation-Id',
      correlationPrefix: 'run1',
    })
    const server = new HpackDecoder()
    const s = sink()
    for (const b of [r.first, r.next, r.next]) {
      const bytes = Buffer.from(b.bytes)
      bytes.write('0000000042', b.idOffset, 'latin1')
      expect(server.decode(bytes, 0, bytes.length, s)).toBe(true)
      expect(s.fields).toEqual([
        ':method',
        'GET',
        ':scheme',
        'http',
        ':authority',
        '127.0.0.1:8080',
        ':path',
        '/ads?limit=20',
        'accept',
        'application/json',
        'x-correlation-id',
        'run1-0000000042',
      ])
    }
    expect(r.next.bytes.length).toBeLessThan(r.first.bytes.length / 2)
  })

  it('a compression error: an index past the table, a size update after a field', () => {
    const d = new HpackDecoder()
    expect(d.decode(hex('be'), 0, 1, sink())).toBe(false)
    expect(d.decode(hex('8820'), 0, 2, sink())).toBe(false)
  })
})
