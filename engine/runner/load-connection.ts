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
  /** Requests may be written (HTTP/2: the server's SETTINGS arrived): nothing is sent before. */
  readonly ready: boolean
  /** Server-Timing of the response being reported, µs, -1 when absent. */
  appUs: number
  dbUs: number
  /** Think time: no request before this performance.now() (0: none pending). */
  thinkUntil: number
  /** Server-Timing headers whose duration was not one, by phase. */
  readonly serverTimingInvalid: number[]
  /** Its socket is open and ready (a request sent now goes out). */
  readonly writable: boolean
  thinking(): boolean
  failAll(kind: number): void
  expire(now: number, limitMs: number, reopen: boolean): void
  /**
   * Send one request: the caller (driver) decided it may. `write` false: the request is only put
   * in flight, for the connection that could not open to fail it (ConnectionHost.connectFailed).
   */
  send(seq: number, nowMs: number, intendedMs: number, phase: number, write?: boolean): void
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
  /** An answer; `errorKind` 0 when it succeeded (its status in its rule, its captures found). */
  response(
    conn: LoadConnection,
    slot: number,
    status: number,
    bytes: number,
    nowMs: number,
    errorKind: number,
  ): void
  failed(conn: LoadConnection, slot: number, errorKind: number): void
  /** The connection could not open (`errorKind`): what it would have sent fails with it. */
  connectFailed(conn: LoadConnection, errorKind: number): void
  /** A scenario step failed in `phase`: the steps after it in its pass are skipped. */
  stepFailed(step: number, phase: number): void
  /** A run-unique number for each scenario pass (`${iteration}`). */
  nextIteration(): number
  /** HTTP/2: the server's SETTINGS_MAX_CONCURRENT_STREAMS, each time it arrives or changes. */
  streamLimit?(conn: LoadConnection, limit: number): void
}

/** What thinkWait keeps on a connection: its pending think-time timer. */
export interface ThinkingConnection extends LoadConnection {
  thinkTimer: NodeJS.Timeout | null
}

/**
 * LoadConnection.thinking for both protocols: is `conn` in its think time? Then its driver is
 * asked again (`host.pump`) when the pause is over. A plain function, as the driver asks before
 * each send: one timer per pause, nothing else allocated.
 */
export function thinkWait(conn: ThinkingConnection, host: ConnectionHost): boolean {
  const wait = conn.thinkUntil - performance.now()
  if (wait <= 0) {
    conn.thinkUntil = 0
    return false
  }
  conn.thinkTimer ??= setTimeout(() => {
    conn.thinkTimer = null
    if (!conn.closed) host.pump(conn)
  }, wait)
  return true
}
