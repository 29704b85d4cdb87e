// HPACK (RFC 7541) for the HTTP/2 load client: a decoder with its dynamic table for the server's
// header blocks, and the encoding of the client's own blocks (integers, raw string literals).
// The decoder keeps what a load client reads of a response (`:status`, Server-Timing, or every
// field for a scenario's captures) and skips the values of the other fields without decoding
// them, unless they go into the dynamic table, whose sizes count decoded octets.
import { decodeHuffman } from './huffman.ts'
import { STATIC_TABLE } from './static-table.ts'

/** What a decoded block gives its reader: reused for every block of a connection. */
export interface HeaderSink {
  /** `:status`, 0 when the block had none. */
  status: number
  /** Keep every field in `fields` (a scenario captures from them), not only Server-Timing. */
  all: boolean
  /** [name, value, name, value, …] of the fields kept. */
  fields: string[]
}

/** The dynamic table size the client announces (SETTINGS_HEADER_TABLE_SIZE): the default. */
export const DECODER_TABLE_SIZE = 4096

export class HpackDecoder {
  private names: string[] = []
  private values: string[] = []
  /** Entries as a ring, newest at `head - 1`; index 62 is the newest. */
  private head = 0
  private count = 0
  private size = 0
  private maxSize: number
  private readonly limit: number
  /** Read position inside the block being decoded. */
  private pos = 0

  constructor(limit = DECODER_TABLE_SIZE) {
    this.limit = limit
    this.maxSize = limit
    const ring = Math.floor(limit / 32) + 1
    this.names = new Array<string>(ring).fill('')
    this.values = new Array<string>(ring).fill('')
  }

  /** A new connection: an empty table of the announced size. */
  reset(): void {
    this.head = 0
    this.count = 0
    this.size = 0
    this.maxSize = this.limit
  }

  /** Entries in the dynamic table (for tests). */
  get entries(): number {
    return this.count
  }

  /** Decode one whole header block; false on a compression error (a connection error). */
  decode(buf: Buffer, start: number, end: number, sink: HeaderSink): boolean {
    sink.status = 0
    sink.fields.length = 0
    this.pos = start
    let first = true
    while (this.pos < end) {
      const b = buf[this.pos]!
      if (b & 0x80) {
        const index = this.integer(buf, end, 7)
        if (index <= 0 || !this.emit(index, sink)) return false
      } else if (b & 0x40) {
        if (!this.literal(buf, end, 6, true, sink)) return false
      } else if (b & 0x20) {
        // A size update comes first in a block (RFC 7541 4.2), and stays within what was announced.
        const size = this.integer(buf, end, 5)
        if (!first || size < 0 || size > this.limit) return false
        this.maxSize = size
        this.evict(0)
        continue
      } else if (!this.literal(buf, end, 4, false, sink)) return false
      first = false
    }
    return this.pos === end
  }

  /** An integer with an N-bit prefix (RFC 7541 5.1); -1 when cut short or too large. */
  private integer(buf: Buffer, end: number, bits: number): number {
    const max = (1 << bits) - 1
    let v = buf[this.pos++]! & max
    if (v < max) return v
    let m = 0
    for (;;) {
      if (this.pos >= end || m > 28) return -1
      const b = buf[this.pos++]!
      v += (b & 127) * 2 ** m
      m += 7
      if ((b & 128) === 0) return v
    }
  }

  /** A string literal, or null when invalid; `want` false skips it (returns ''). */
  private string(buf: Buffer, end: number, want: boolean): string | null {
    if (this.pos >= end) return null
    const huffman = (buf[this.pos]! & 0x80) !== 0
    const len = this.integer(buf, end, 7)
    if (len < 0 || this.pos + len > end) return null
    const at = this.pos
    this.pos += len
    if (!want) return ''
    if (huffman) return decodeHuffman(buf, at, at + len)
    return buf.toString('latin1', at, at + len)
  }

  private literal(buf: Buffer, end: number, bits: number, index: boolean, sink: HeaderSink): boolean {
    const nameIndex = this.integer(buf, end, bits)
    if (nameIndex < 0) return false
    let name: string | null
    if (nameIndex === 0) name = this.string(buf, end, true)
    else name = this.nameAt(nameIndex)
    if (name === null) return false
    const want = index || sink.all || name === ':status' || name === 'server-timing'
    const value = this.string(buf, end, want)
    if (value === null) return false
    if (want) this.keep(name, value, sink)
    if (index) this.insert(name, value)
    return true
  }

  private nameAt(index: number): string | null {
    if (index <= STATIC_TABLE.length) return STATIC_TABLE[index - 1]![0]
    const d = index - STATIC_TABLE.length - 1
    if (d >= this.count) return null
    return this.names[this.slot(d)]!
  }

  private emit(index: number, sink: HeaderSink): boolean {
    if (index <= STATIC_TABLE.length) {
      const [name, value] = STATIC_TABLE[index - 1]!
      this.keep(name, value, sink)
      return true
    }
    const d = index - STATIC_TABLE.length - 1
    if (d >= this.count) return false
    const s = this.slot(d)
    this.keep(this.names[s]!, this.values[s]!, sink)
    return true
  }

  private keep(name: string, value: string, sink: HeaderSink): void {
    if (name === ':status') sink.status = statusOf(value)
    else if (sink.all || name === 'server-timing') sink.fields.push(name, value)
  }

  /** Ring slot of the d-th newest entry. */
  private slot(d: number): number {
    const n = this.names.length
    return (this.head - 1 - d + 2 * n) % n
  }

  private insert(name: string, value: string): void {
    const size = name.length + value.length + 32
    // An entry larger than the table empties it and is not added (RFC 7541 4.4).
    this.evict(size)
    if (size > this.maxSize) return
    this.names[this.head] = name
    this.values[this.head] = value
    this.head = (this.head + 1) % this.names.length
    this.count++
    this.size += size
  }

  /** Drop the oldest entries until `room` more octets fit. */
  private evict(room: number): void {
    while (this.count > 0 && this.size + room > this.maxSize) {
      const s = this.slot(this.count - 1)
      this.size -= this.names[s]!.length + this.values[s]!.length + 32
      this.count--
    }
  }
}

/** A `:status` value: three digits, 0 when it is not (a malformed response). */
function statusOf(v: string): number {
  if (v.length !== 3) return 0
  const n = Number(v)
  return Number.isInteger(n) && n >= 100 && n <= 999 ? n : 0
}

// ---- encoding ----------------------------------------------------------------------------------

/** An integer with an N-bit prefix, the prefix's other bits `flags`. */
export function encodeInteger(out: number[], value: number, bits: number, flags: number): void {
  const max = (1 << bits) - 1
  if (value < max) {
    out.push(flags | value)
    return
  }
  out.push(flags | max)
  value -= max
  while (value >= 128) {
    out.push((value % 128) + 128)
    value = Math.floor(value / 128)
  }
  out.push(value)
}

/** A raw (not Huffman-coded) string literal. */
export function encodeString(out: number[], text: string): void {
  const bytes = Buffer.from(text, 'latin1')
  encodeInteger(out, bytes.length, 7, 0)
  for (const b of bytes) out.push(b)
}

/** The static table's index of `name` with `value` (exact), else of `name`, else 0. */
export function staticIndex(name: string, value: string): { exact: number; name: number } {
  let byName = 0
  for (let i = 0; i < STATIC_TABLE.length; i++) {
    const [n, v] = STATIC_TABLE[i]!
    if (n !== name) continue
    if (v === value) return { exact: i + 1, name: i + 1 }
    if (byName === 0) byName = i + 1
  }
  return { exact: 0, name: byName }
}

/**
 * One field as a literal: with incremental indexing (`index`: it enters the peer's dynamic table)
 * or without indexing; its name by `nameIndex` (static or dynamic) when not 0.
 */
export function encodeLiteral(
  out: number[],
  name: string,
  value: string,
  index: boolean,
  nameIndex = 0,
): void {
  if (index) encodeInteger(out, nameIndex, 6, 0x40)
  else encodeInteger(out, nameIndex, 4, 0x00)
  if (nameIndex === 0) encodeString(out, name)
  encodeString(out, value)
}

/** The size an entry takes in a dynamic table (RFC 7541 4.1). */
export const entrySize = (name: string, value: string): number =>
  Buffer.byteLength(name, 'latin1') + Buffer.byteLength(value, 'latin1') + 32

/** A whole block of fields, each a literal without indexing (static names where they exist). */
export function encodeFields(fields: readonly (readonly [string, string])[]): Buffer {
  const out: number[] = []
  for (const [name, value] of fields) {
    const s = staticIndex(name, value)
    if (s.exact) encodeInteger(out, s.exact, 7, 0x80)
    else encodeLiteral(out, name, value, false, s.name)
  }
  return Buffer.from(out)
}
