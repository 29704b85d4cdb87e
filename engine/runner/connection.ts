// One load connection: autocannon's Client (its connection handling: the design's choice) with its
// request, connect and response parts replaced, because the load shape and the ledger need them:
// - `_doRequest` asks the driver whether to send (a parked connection keeps its socket open
//   while the schedule does not need it, so keep-alive connections survive ramp steps);
// - the request is one prebuilt buffer per pipelined slot (request-template.ts) with the
//   correlation id's digits written in place (rebuilding each request in autocannon's setupRequest
//   gave 29 200 req/s on one core against nginx where writing the id in place gave 52 900,
//   measured with autocannon 9.0.0);
// - `_connect` verifies TLS unless the target opts out (and resumes its kept TLS session when the
//   target asks), reports socket errors by kind, times the connection (TCP connect and TLS
//   handshake apart) and keeps that time out of request latency;
// - responses are read by the project's own parser (response-parser.ts) instead of autocannon's
//   (http-parser-js): framing as RFC 9112 says, bodies counted and not kept. A response the parser
//   rejects fails its request as 'parse' at once and resets the socket, instead of waiting for a
//   timeout; so does a response that arrives before any request waits for it;
// - nothing is written before the socket is connected: a request is sent (it has a correlation id
//   and a row) only once it is on a socket the server could read, so a connection still opening
//   when the window closes holds no request (issue 28, finding 6);
// - an answer is a success when its status is in its target's or step's rule (status-rule.ts:
//   200–399 unless the config says otherwise), else an `unexpected status` error;
// - a response that ends its connection (`Connection: close`, HTTP/1.0, a body ending at close) is
//   a success and nothing more is written on that socket: it reopens for the next request. A
//   socket the server closed while idle reopens at once; requests in flight when the server
//   closed are 'closed' errors (never retried).
// Timeouts are checked by the driver's sweep, so no per-request timer is rearmed.
import type net from 'node:net'
import { ERROR_KINDS } from '../api/types.ts'
import { formatCorrelationId, SEQ_DIGITS } from '../store/correlation.ts'
import { renderStepRequest, type ScenarioSetup } from './scenario.ts'
import { ScenarioUser } from './scenario-user.ts'
import { KEEP_BODY, NO_BODY, ResponseParser, UNSOLICITED, type ResponseSink } from './response-parser.ts'
import type { RequestTemplate } from './request-template.ts'
import { parseServerTiming } from './server-timing.ts'
import { AutocannonClient, errorKindOf, openSocket, type AcClient, type TlsSessions } from './socket.ts'
import { successRule, successTable, type Expect } from '../config/status-rule.ts'
import { thinkWait, type ConnectionHost, type LoadConnection } from './load-connection.ts'

const ERR_PARSE = ERROR_KINDS.indexOf('parse')
const ERR_CLOSED = ERROR_KINDS.indexOf('closed')
const ERR_TIMEOUT = ERROR_KINDS.indexOf('timeout')
const ERR_INFLIGHT = ERROR_KINDS.indexOf('inflight')
const ERR_STATUS = ERROR_KINDS.indexOf('status')

/** A scenario connection renders each step's request (captured values differ per pass). */
export const NO_STEP = 255

export type { ConnectionHost } from './load-connection.ts'

const RECONNECT_DELAY_MS = 5

export class Connection implements ResponseSink, LoadConnection {
  readonly index: number
  readonly client: AcClient
  readonly pipelining: number
  /** In-flight FIFO, as parallel rings: sequence number, send time and intended time (ms). */
  readonly seq: Float64Array
  readonly sentAt: Float64Array
  readonly intendedAt: Float64Array
  readonly phase: Uint8Array
  /** Scenario step of each in-flight request (NO_STEP for plain targets). */
  readonly step: Uint8Array
  head = 0
  inFlight = 0
  parked = false
  /** On the driver's list of free connections (rate mode). */
  queued = false
  needsReconnect = false
  closed = false
  /** The socket is connected: requests may be written (nothing is written while it opens). */
  ready = false
  private connectStart = 0
  private tcpAt = 0
  private readonly resume: TlsSessions | null
  /** Server-Timing of the response being parsed, µs, -1 when absent. */
  appUs = -1
  dbUs = -1
  /**
   * Server-Timing headers on this connection whose duration was not one (kept out of appUs/dbUs),
   * by the phase of the request they answered.
   */
  readonly serverTimingInvalid: number[] = []
  private readonly buffers: Buffer[]
  private next = 0
  private readonly idOffset: number
  private readonly host: ConnectionHost
  private readonly scenario: ScenarioSetup | null
  /** The user a scenario connection plays: its next step and variables (null: a plain target). */
  private readonly user: ScenarioUser | null
  private readonly parser: ResponseParser
  /** The target's requests are HEAD (no body in their responses). */
  private readonly headRequest: boolean
  /** Chunks received on this connection, and the count when each in-flight request was written. */
  private chunkNo = 0
  /** Responses completed on the current socket. */
  private socketAnswered = 0
  readonly sentInChunk: Float64Array
  /** Which statuses are a success for a plain target's requests (status-rule.ts). */
  private readonly success: Uint8Array
  /** Think time: no request before this performance.now() (0: none pending). */
  thinkUntil = 0
  /** The pending think-time timer (thinkWait's). */
  thinkTimer: NodeJS.Timeout | null = null
  private readonly pause: ((step: number) => number) | null

  constructor(
    index: number,
    target: {
      url: URL
      insecure: boolean
      timeoutMs: number
      pipelining: number
      method: string
      expect?: Expect | undefined
      /** TLS session resumption: the target's kept session (null: every handshake a full one). */
      resume?: TlsSessions | null
    },
    template: RequestTemplate,
    host: ConnectionHost,
    scenario: ScenarioSetup | null = null,
    /** Think time after a response of a step (engine/runner/think.ts), or null for none. */
    pause: ((step: number) => number) | null = null,
  ) {
    this.index = index
    this.resume = target.resume ?? null
    this.host = host
    this.scenario = scenario
    this.user = scenario ? new ScenarioUser(scenario, index, () => host.nextIteration()) : null
    this.pause = pause
    this.pipelining = target.pipelining
    const ring = target.pipelining
    this.seq = new Float64Array(ring)
    this.sentAt = new Float64Array(ring)
    this.intendedAt = new Float64Array(ring)
    this.phase = new Uint8Array(ring)
    this.step = new Uint8Array(ring).fill(NO_STEP)
    this.sentInChunk = new Float64Array(ring)
    this.headRequest = target.method.toUpperCase() === 'HEAD'
    this.success = successTable(successRule(target))
    this.parser = new ResponseParser(this, scenario !== null)
    // One buffer more than can be in flight: a buffer is rewritten only after its response
    // arrived, so a write still queued in the socket is never changed under it.
    this.buffers = Array.from({ length: ring + 1 }, () => Buffer.from(template.bytes))
    this.idOffset = template.idOffset
    const url = target.url
    const secure = url.protocol === 'https:'
    const port = Number(url.port || (secure ? 443 : 80))
    const hostname = url.hostname.replace(/^\[|\]$/g, '')
    this.client = new AutocannonClient({
      hostname,
      port,
      protocol: url.protocol,
      path: url.pathname + url.search,
      method: target.method,
      pipelining: target.pipelining,
      timeout: target.timeoutMs / 1000,
      setupClient: (client: AcClient) => {
        client._connect = () => this.connect(client, secure, hostname, port, target.insecure)
        client._doRequest = () => this.host.pump(this)
      },
    })
    this.client.timeoutTicker.clear()
    this.client.timeoutTicker = { reschedule() {}, clear() {} }
  }

  // ---- ResponseSink: called by the parser, per response --------------------------------------

  begin(): number {
    // A response must answer a request written before its first byte arrived: one read in the same
    // chunk as a request sent since (an extra answer to the previous request) would pass for an
    // answer in 0 ms.
    if (this.inFlight === 0 || this.sentInChunk[this.head] === this.chunkNo) return UNSOLICITED
    const step = this.step[this.head]!
    if (step === NO_STEP) return this.headRequest ? NO_BODY : 0
    const s = this.scenario!.steps[step]!
    return (s.method === 'HEAD' ? NO_BODY : 0) | (s.captures.some(([, c]) => 'json' in c) ? KEEP_BODY : 0)
  }

  headers(_status: number, headers: string[]): void {
    if (this.user) this.user.lastHeaders = headers
    for (let i = 0; i < headers.length; i += 2) {
      const name = headers[i]!
      if (name.length === 13 && name.toLowerCase() === 'server-timing')
        if (!parseServerTiming(headers[i + 1]!, this)) {
          const phase = this.phase[this.head]!
          this.serverTimingInvalid[phase] = (this.serverTimingInvalid[phase] ?? 0) + 1
        }
    }
  }

  complete(status: number, bytes: number, keepAlive: boolean): void {
    const now = performance.now()
    const slot = this.head
    if (this.pause) {
      const step = this.step[slot]!
      const ms = this.pause(step === NO_STEP ? 0 : step)
      if (ms > 0) this.thinkUntil = now + ms
    }
    const step = this.step[slot]!
    const success = step === NO_STEP ? this.success : this.scenario!.steps[step]!.success
    let kind = status < 600 && success[status] === 1 ? 0 : ERR_STATUS
    if (this.user) {
      kind = this.user.answered(step, kind, this.parser.keptBody())
      if (kind !== 0) this.host.stepFailed(step, this.phase[slot]!)
    }
    this.head = (this.head + 1) % this.pipelining
    this.inFlight--
    // Nothing more is written on a socket its server ends: the next request goes on a new one.
    if (!keepAlive) this.needsReconnect = true
    this.socketAnswered++
    this.host.response(this, slot, status, bytes, now, kind)
    this.appUs = -1
    this.dbUs = -1
    this.host.pump(this)
  }

  fail(): void {
    this.onSocketFailure(this.client.conn, ERR_PARSE)
  }

  private connect(
    client: AcClient,
    secure: boolean,
    hostname: string,
    port: number,
    insecure: boolean,
  ): void {
    const o = { secure, hostname, port, insecure, ...(this.resume ? { resume: this.resume } : {}) }
    const socket = openSocket(o, (buffer, n) => {
      if (this.client.conn !== socket) return
      this.chunkNo++
      this.parser.feed(buffer, n)
    })
    socket.setNoDelay(true)
    client.conn = socket
    this.ready = false
    this.parser.reset()
    this.socketAnswered = 0
    this.connectStart = performance.now()
    this.tcpAt = 0
    if (secure) socket.once('connect', () => (this.tcpAt = performance.now()))
    // Registered before any write: Node queues a write made while connecting behind this event.
    socket.once(secure ? 'secureConnect' : 'connect', () => this.onReady(socket))
    socket.on('error', (err: NodeJS.ErrnoException) => this.onSocketFailure(socket, errorKindOf(err)))
    socket.on('end', () => this.onServerEnd(socket))
  }

  /** The socket is connected: the connection may send now (its requests' latency starts then). */
  private onReady(socket: net.Socket): void {
    if (this.client.conn !== socket || this.closed) return
    this.ready = true
    const now = performance.now()
    const tcp = this.tcpAt || now
    const times = { tcpUs: (tcp - this.connectStart) * 1000, tlsUs: (now - tcp) * 1000, prefaceUs: 0 }
    this.host.connected(this, (now - this.connectStart) * 1000, times)
    this.host.pump(this)
  }

  /** The socket failed, the server closed it or sent what is not HTTP: every request in flight on it failed. */
  private onSocketFailure(socket: net.Socket, kind: number): void {
    const client = this.client
    if (client.conn !== socket) return
    socket.removeAllListeners('data')
    socket.removeAllListeners('end')
    socket.removeAllListeners('error')
    socket.on('error', () => {})
    socket.destroy()
    // A connection that could not open (refused, TLS, DNS…) holds no request: the request it was
    // opened for fails with it, as it would have on the socket.
    if (!this.ready && this.inFlight === 0) this.host.connectFailed(this, kind)
    this.failAll(kind)
    if (this.closed || client.destroyed) return
    // A short pause keeps a refused port from becoming a busy loop; errors are still counted.
    setTimeout(() => {
      if (!this.closed && !client.destroyed && client.conn === socket) client._connect()
    }, RECONNECT_DELAY_MS)
  }

  /**
   * The server closed its side. A body that ends at close is complete (a success); a socket that
   * was idle reopens now, so the next request does not find it closed; requests in flight on it are
   * lost: 'closed', not 'reset' (the server ended the connection in order).
   */
  private onServerEnd(socket: net.Socket): void {
    if (this.client.conn !== socket) return
    const was = this.parser.end()
    if (this.client.conn !== socket) return // the complete response reopened it
    // A socket closed before any answer (a server refusing in its own way) reopens after a pause,
    // as after an error, so it cannot become a busy loop.
    if (was === 'idle' && this.inFlight === 0 && this.socketAnswered > 0) {
      this.client._destroyConnection()
      if (!this.closed && !this.client.destroyed) this.client._connect()
      return
    }
    this.onSocketFailure(socket, ERR_CLOSED)
  }

  /** Is this connection in its think time? Then it asks its driver again when the pause is over. */
  thinking(): boolean {
    return thinkWait(this, this.host)
  }

  /** Record every in-flight request as failed with `kind` and forget it. */
  failAll(kind: number): void {
    while (this.inFlight > 0) {
      const slot = this.head
      this.head = (this.head + 1) % this.pipelining
      this.inFlight--
      this.host.failed(this, slot, kind)
      // A step without an answer ends its pass too (a window's end is no failure).
      if (this.scenario && kind !== ERR_INFLIGHT) this.host.stepFailed(this.step[slot]!, this.phase[slot]!)
    }
    // The socket failed, not the user: a set-up scenario goes on with its captures.
    this.user?.restart()
  }

  /**
   * The driver's timeout sweep: when the oldest request in flight has waited longer than `limitMs`,
   * every request in flight fails as 'timeout' and the socket is dropped (reopened when `reopen`).
   */
  expire(now: number, limitMs: number, reopen: boolean): void {
    // A connect that has not finished within the timeout (a full accept queue) fails as one.
    if (!this.ready && this.inFlight === 0 && !this.closed && now - this.connectStart > limitMs) {
      this.host.connectFailed(this, ERR_TIMEOUT)
      this.failAll(ERR_TIMEOUT)
      this.client._destroyConnection()
      if (reopen) this.client._connect()
      return
    }
    if (this.inFlight === 0 || now - this.sentAt[this.head]! <= limitMs) return
    this.failAll(ERR_TIMEOUT)
    this.client._destroyConnection()
    if (reopen) this.client._connect()
  }

  /**
   * Send one request: the caller (driver) decided it may. `write` false: the request is only put
   * in flight, for the connection that could not open to fail it (connectFailed).
   */
  send(seq: number, nowMs: number, intendedMs: number, phase: number, write = true): void {
    let buf: Buffer
    const slot = (this.head + this.inFlight) % this.pipelining
    if (this.user) {
      const s = this.user.setup
      const step = this.user.next()
      buf = renderStepRequest(s.steps[step]!, this.user.vars, {
        host: s.host,
        basePath: s.basePath,
        authorization: s.authorization,
        keepAlive: s.keepAlive,
        correlationHeader: s.correlationHeader,
        correlationId: formatCorrelationId(s.correlationPrefix, seq),
      })
      this.step[slot] = step
    } else {
      buf = this.buffers[this.next]!
      this.next = (this.next + 1) % this.buffers.length
      let n = seq
      for (let i = this.idOffset + SEQ_DIGITS - 1; i >= this.idOffset; i--) {
        buf[i] = 48 + (n % 10)
        n = Math.floor(n / 10)
      }
    }
    this.seq[slot] = seq
    this.sentAt[slot] = nowMs
    this.intendedAt[slot] = intendedMs
    this.phase[slot] = phase
    this.sentInChunk[slot] = this.chunkNo
    this.inFlight++
    if (write) this.client.conn.write(buf)
  }

  /** Keep-alive off: drop the socket after each response and open a new one for the next request. */
  reconnect(): void {
    this.needsReconnect = false
    // Requests written behind a response that ended the connection are not answered on it.
    if (this.inFlight > 0) this.failAll(ERR_CLOSED)
    this.client._destroyConnection()
    this.client._connect()
  }

  get writable(): boolean {
    return this.ready && !this.client.conn.destroyed
  }

  close(): void {
    this.closed = true
    if (this.thinkTimer) clearTimeout(this.thinkTimer)
    this.thinkTimer = null
    this.client.destroy()
  }
}
