// What the segment driver (driver.ts) and the open-loop sender (openloop.ts) ask of one load
// connection, whatever its protocol: HTTP/1.1 (connection.ts) or HTTP/2 (h2/connection.ts). A
// request in flight lives in a slot; the driver reads its columns by slot when it ends.

export interface LoadConnection {
  readonly index: number
  /** Requests this connection may have in flight now (0 while it cannot send at all). */
  readonly pipelining: number
  inFlight: number
  /** Per slot: sequence number, send time and intended time (ms), phase, scenario step. */
  readonly seq: Float64Array
  readonly sentAt: Float64Array
  readonly intendedAt: Float64Array
  readonly phase: Uint8Array
  readonly step: Uint8Array
  parked: boolean
  /** On the open loop's list of free connections. */
  queued: boolean
  needsReconnect: boolean
  closed: boolean
  /** Server-Timing of the response being reported, µs, -1 when absent. */
  appUs: number
  dbUs: number
  /** The response being reported failed its step's expected status or capture. */
  captureFailed: boolean
  /** Think time: no request before this performance.now() (0: none pending). */
  thinkUntil: number
  /** Server-Timing headers whose duration was not one, by phase. */
  readonly serverTimingInvalid: number[]
  /** Its socket is open or opening (a request sent now goes out). */
  readonly writable: boolean
  thinking(): boolean
  failAll(kind: number): void
  expire(now: number, limitMs: number, reopen: boolean): void
  send(seq: number, nowMs: number, intendedMs: number, phase: number): void
  reconnect(): void
  close(): void
}

/**
 * How a connection's socket became ready, µs each (the driver adds them to the ledger's side
 * lists, apart from any request's latency): TCP connect, the TLS handshake (0 for plain), and
 * for HTTP/2 the preface until the server's SETTINGS arrived (0 for HTTP/1.1).
 */
export interface ReadyTimes {
  tcpUs: number
  tlsUs: number
  prefaceUs: number
}

/** What a connection reports to its driver. Kept as plain functions: they run per request. */
export interface ConnectionHost {
  /** May this connection send now? Called after every response and on (re)connect. */
  pump(conn: LoadConnection): void
  /** The socket is ready for requests: `us` since it was created (all of `times`). */
  connected(conn: LoadConnection, us: number, times: ReadyTimes): void
  response(conn: LoadConnection, slot: number, status: number, bytes: number, nowMs: number): void
  failed(conn: LoadConnection, slot: number, errorKind: number): void
  /** A run-unique number for each scenario pass (`${iteration}`). */
  nextIteration(): number
  /** HTTP/2: the server's SETTINGS_MAX_CONCURRENT_STREAMS, each time it arrives or changes. */
  streamLimit?(conn: LoadConnection, limit: number): void
}
