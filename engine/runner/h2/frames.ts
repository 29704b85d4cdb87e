// HTTP/2 frames (RFC 9113 §4, §6): types, flags, error codes and settings the load client uses,
// and writing a frame's 9-byte header.

export const FRAME = {
  DATA: 0,
  HEADERS: 1,
  PRIORITY: 2,
  RST_STREAM: 3,
  SETTINGS: 4,
  PUSH_PROMISE: 5,
  PING: 6,
  GOAWAY: 7,
  WINDOW_UPDATE: 8,
  CONTINUATION: 9,
} as const

export const FLAG = {
  END_STREAM: 0x1,
  ACK: 0x1,
  END_HEADERS: 0x4,
  PADDED: 0x8,
  PRIORITY: 0x20,
} as const

/** Error codes (RFC 9113 §7). */
export const H2_ERROR = {
  NO_ERROR: 0x0,
  PROTOCOL_ERROR: 0x1,
  INTERNAL_ERROR: 0x2,
  FLOW_CONTROL_ERROR: 0x3,
  SETTINGS_TIMEOUT: 0x4,
  STREAM_CLOSED: 0x5,
  FRAME_SIZE_ERROR: 0x6,
  REFUSED_STREAM: 0x7,
  CANCEL: 0x8,
  COMPRESSION_ERROR: 0x9,
  CONNECT_ERROR: 0xa,
  ENHANCE_YOUR_CALM: 0xb,
  INADEQUATE_SECURITY: 0xc,
  HTTP_1_1_REQUIRED: 0xd,
} as const

export const SETTING = {
  HEADER_TABLE_SIZE: 0x1,
  ENABLE_PUSH: 0x2,
  MAX_CONCURRENT_STREAMS: 0x3,
  INITIAL_WINDOW_SIZE: 0x4,
  MAX_FRAME_SIZE: 0x5,
  MAX_HEADER_LIST_SIZE: 0x6,
} as const

/** The client connection preface (RFC 9113 §3.4). */
export const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1')

export const FRAME_HEADER = 9
export const DEFAULT_WINDOW = 65_535
export const DEFAULT_MAX_FRAME = 16_384
export const MAX_WINDOW = 2 ** 31 - 1
/** The highest stream id: past it a connection opens no more streams (RFC 9113 §5.1.1). */
export const MAX_STREAM_ID = 2 ** 31 - 1

/** Write a frame header at `at`. */
export function frameHeader(
  buf: Buffer,
  at: number,
  length: number,
  type: number,
  flags: number,
  stream: number,
): void {
  buf[at] = (length >>> 16) & 255
  buf[at + 1] = (length >>> 8) & 255
  buf[at + 2] = length & 255
  buf[at + 3] = type
  buf[at + 4] = flags
  buf.writeUInt32BE(stream >>> 0, at + 5)
}

/** A whole frame as a new buffer (frames that are not on the per-request path). */
export function frame(
  type: number,
  flags: number,
  stream: number,
  payload: Buffer = Buffer.alloc(0),
): Buffer {
  const buf = Buffer.allocUnsafe(FRAME_HEADER + payload.length)
  frameHeader(buf, 0, payload.length, type, flags, stream)
  payload.copy(buf, FRAME_HEADER)
  return buf
}

/** A SETTINGS payload from [id, value] pairs. */
export function settingsPayload(pairs: readonly (readonly [number, number])[]): Buffer {
  const buf = Buffer.allocUnsafe(pairs.length * 6)
  pairs.forEach(([id, value], i) => {
    buf.writeUInt16BE(id, i * 6)
    buf.writeUInt32BE(value >>> 0, i * 6 + 2)
  })
  return buf
}

/** A 4-byte big-endian payload (WINDOW_UPDATE increment, RST_STREAM code). */
export function u32(value: number): Buffer {
  const buf = Buffer.allocUnsafe(4)
  buf.writeUInt32BE(value >>> 0, 0)
  return buf
}
