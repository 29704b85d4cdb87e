// One HTTP/2 load connection: up to `streams` requests in flight as streams of one socket (fewer
// when the server's SETTINGS_MAX_CONCURRENT_STREAMS says so), each in a slot of typed arrays as
// the HTTP/1.1 connection keeps them (no object per request). A plain target's request is a
// prebuilt header block with the correlation id's digits written in place (request.ts), written
// out by outgoing.ts; the protocol (preface, flow control, GOAWAY, PING, pushes) is session.ts,
// the slots and request bodies streams.ts; what a response does to its stream, and the stream's
// end, are here.
// - A stream ends with the END_STREAM of its response: its latency, status, wire bytes (the
//   frames of the stream: headers, data, padding); interim 1xx responses are skipped.
// - RST_STREAM from the server fails the stream: `stream_refused` for REFUSED_STREAM,
//   `stream_reset` for any other code. GOAWAY: streams above its last id were not processed, and
//   fail as `closed` (NO_ERROR: the connection ends in order) or `goaway` (an error code); those
//   below finish, then the connection reopens. A socket lost with streams in flight fails them
//   as `goaway` after an erroring GOAWAY, `closed` when the server ended it, else by socket error.
// - Nothing is sent before the server's SETTINGS arrived (the connection is `ready`), so limits are
//   known before anything leaves. A connection that never became ready (its socket lost, or no
//   SETTINGS within the timeout) reports it (connectFailed): the request it would have sent fails
//   with its error, as on HTTP/1.1.
// - An answer is a success when its status is in its target's or step's rule (status-rule.ts),
//   else an `unexpected status` error; a scenario step's captures are read from a success only.
// - A timed-out stream is cancelled (RST_STREAM CANCEL); the connection stays.
import type { Socket } from 'node:net'
import type { ScenarioSetup } from '../scenario.ts'
import { renderStepParts } from '../scenario.ts'
import { ScenarioUser } from '../scenario-user.ts'
import { thinkWait, type ConnectionHost, type LoadConnection } from '../load-connection.ts'
import { ERROR_KINDS } from '../../api/types.ts'
import { formatCorrelationId } from '../../store/correlation.ts'
import { parseServerTiming } from '../server-timing.ts'
import { MAX_CAPTURE_BODY_BYTES } from '../response-parser.ts'
import { errorKindOf, type SocketOptions } from '../socket.ts'
import { successRule, successTable, type Expect } from '../../config/status-rule.ts'
import { FLAG, FRAME_HEADER, H2_ERROR, MAX_WINDOW } from './frames.ts'
import { H2Outgoing } from './outgoing.ts'
import { h2StepRequest, type H2Request } from './request.ts'

const kind = (k: (typeof ERROR_KINDS)[number]) => ERROR_KINDS.indexOf(k)
const ERR_PARSE = kind('parse')
const ERR_CLOSED = kind('closed')
const ERR_TIMEOUT = kind('timeout')
const ERR_RESET = kind('stream_reset')
const ERR_REFUSED = kind('stream_refused')
const ERR_GOAWAY = kind('goaway')
const ERR_STATUS = kind('status')
const ERR_INFLIGHT = kind('inflight')
const NO_STEP = 255
const RECONNECT_DELAY_MS = 5

export interface H2Target {
  url: URL
  streams: number
  socket: SocketOptions
  /** The statuses that count as a success (status-rule.ts; default 200–399). */
  expect?: Expect | undefined
}

export class H2Connection extends H2Outgoing implements LoadConnection {
  readonly index: number
  parked = false
  queued = false
  needsReconnect = false
  closed = false
  appUs = -1
  dbUs = -1
  thinkUntil = 0
  readonly serverTimingInvalid: number[] = []
  private readonly host: ConnectionHost
  private readonly scenario: ScenarioSetup | null
  private readonly pause: ((step: number) => number) | null
  /** The pending think-time timer (thinkWait's). */
  thinkTimer: NodeJS.Timeout | null = null
  private limit = 0
  private socketAnswered = 0
  /** The user a scenario connection plays: its next step and variables (null: a plain target). */
  private readonly user: ScenarioUser | null
  private readonly url: URL
  /** Which statuses are a success for a plain target's requests (status-rule.ts). */
  private readonly success: Uint8Array

  constructor(
    index: number,
    target: H2Target,
    request: H2Request,
    host: ConnectionHost,
    scenario: ScenarioSetup | null = null,
    pause: ((step: number) => number) | null = null,
  ) {
    super(target.socket, target.streams, scenario !== null, request)
    this.index = index
    this.host = host
    this.scenario = scenario
    this.user = scenario ? new ScenarioUser(scenario, index, () => host.nextIteration()) : null
    this.pause = pause
    this.url = target.url
    this.success = successTable(successRule(target))
    this.connect()
  }

  get pipelining(): number {
    // Nothing before the server's SETTINGS (their limit), nor on a socket that is ending.
    if (!this.ready || this.socket === null || this.draining || this.goawayLast >= 0) return 0
    return this.limit
  }

  get writable(): boolean {
    return this.socket !== null && this.ready
  }

  private connect(): void {
    this.needsReconnect = false
    this.resetEncoder()
    this.socketAnswered = 0
    // The connection pumps itself once ready (onReady): nothing is sent while it opens.
    this.open((socket, err) => this.socket === socket && this.onLost(socket, errorKindOf(err), false))
  }

  // ---- sending -------------------------------------------------------------------------------

  /** `write` false: only put in flight, for a connection that could not open to fail it. */
  send(seq: number, nowMs: number, intendedMs: number, phase: number, write = true): void {
    const slot = this.take()
    this.seq[slot] = seq
    this.sentAt[slot] = nowMs
    this.intendedAt[slot] = intendedMs
    this.phase[slot] = phase
    this.step[slot] = NO_STEP
    if (this.scenario) this.renderStep(slot, seq)
    if (write && this.ready) this.writeRequest(slot)
  }

  private renderStep(slot: number, seq: number): void {
    const user = this.user!
    const s = user.setup
    const index = user.next()
    const step = s.steps[index]!
    const parts = renderStepParts(step, user.vars, s.basePath)
    const r = h2StepRequest({
      method: step.method,
      url: this.url,
      ...parts,
      authorization: step.hasAuthorization ? null : s.authorization,
      correlationHeader: s.correlationHeader,
      correlationId: formatCorrelationId(s.correlationPrefix, seq),
    })
    this.blocks[slot] = r.block
    this.bodies[slot] = r.body
    this.step[slot] = index
    this.keepBody[slot] = step.captures.some(([, c]) => 'json' in c) ? 1 : 0
  }

  // ---- the session's events ------------------------------------------------------------------

  protected onReady(tcpUs: number, tlsUs: number, prefaceUs: number): void {
    this.host.connected(this, tcpUs + tlsUs + prefaceUs, { tcpUs, tlsUs, prefaceUs })
    // Requests a graceful GOAWAY left unprocessed go again now (their latency from their first send).
    this.forEachBusy((slot) => {
      if (this.streamOf[slot] === 0) this.writeRequest(slot)
    })
    this.host.pump(this)
  }

  protected onStreamLimit(limit: number): void {
    this.limit = Math.max(0, Math.min(this.capacity, limit))
    this.host.streamLimit?.(this, limit)
    if (this.ready) this.host.pump(this)
  }

  protected onWindow(stream: number, delta: number): void {
    if (stream > 0) {
      const slot = this.slotOf(stream)
      if (slot < 0) return
      if (this.sendWin[slot]! + delta > MAX_WINDOW)
        return this.resetStream(slot, H2_ERROR.FLOW_CONTROL_ERROR, ERR_PARSE)
      this.sendWin[slot] = this.sendWin[slot]! + delta
    } else if (stream < 0) this.forEachBusy((slot) => (this.sendWin[slot] = this.sendWin[slot]! + delta))
    this.resumeBodies()
  }

  protected onGoaway(last: number, code: number): void {
    // Streams above `last` were not processed: after a graceful GOAWAY they go again on the next
    // connection (RFC 9113 §6.8: safe to retry), their latency still counted from their first send.
    this.forEachBusy((slot) => {
      const id = this.streamOf[slot]!
      if (id <= last) return
      if (code === H2_ERROR.NO_ERROR) this.requeue(slot)
      else this.end(slot, ERR_GOAWAY)
    })
    this.needsReconnect = true
    this.host.pump(this)
  }

  protected onReset(stream: number, code: number): void {
    const slot = this.slotOf(stream)
    if (slot < 0) return
    this.end(slot, code === H2_ERROR.REFUSED_STREAM ? ERR_REFUSED : ERR_RESET)
    this.host.pump(this)
  }

  /** -1: the server ended the connection; -2: a protocol error of the server's; else a socket error. */
  protected onLost(socket: Socket, how: number, _idle: boolean): void {
    if (this.socket !== socket) return
    const graceful = how === -1 && this.goawayCode === 0
    const kind = how === -2 ? ERR_PARSE : this.goawayCode !== 0 ? ERR_GOAWAY : how === -1 ? ERR_CLOSED : how
    const wasReady = this.ready
    // A connection that could not open (refused, TLS, ALPN, no SETTINGS…) holds no request: the
    // request it was opened for fails with it.
    if (!wasReady && this.inFlight === 0) this.host.connectFailed(this, kind)
    this.dropSocket()
    this.forEachBusy((slot) => {
      // Requests not written yet go on the next socket, unless this one never became ready.
      if (this.streamOf[slot] !== 0 || !wasReady) this.end(slot, kind)
    })
    if (this.closed) return
    if (graceful && this.socketAnswered > 0) this.connect()
    else
      setTimeout(() => {
        if (!this.closed && this.socket === null) this.connect()
      }, RECONNECT_DELAY_MS)
  }

  headers(stream: number, flags: number, block: Buffer, start: number, end: number, wire: number): void {
    if (!this.decoder.decode(block, start, end, this.sink))
      return this.error(H2_ERROR.COMPRESSION_ERROR, 'HPACK')
    const slot = this.slotOf(stream)
    if (slot < 0) {
      if (stream % 2 === 0 || stream >= this.nextStreamId)
        this.error(H2_ERROR.PROTOCOL_ERROR, 'a stream never opened')
      return
    }
    this.wire[slot] = this.wire[slot]! + wire
    const status = this.sink.status
    if (this.status[slot] === 0) {
      if (status >= 100 && status < 200 && (flags & FLAG.END_STREAM) === 0) return
      if (status < 200) return this.resetStream(slot, H2_ERROR.PROTOCOL_ERROR, ERR_PARSE)
      this.status[slot] = status
      this.readFields(slot)
    } else if ((flags & FLAG.END_STREAM) === 0)
      return this.resetStream(slot, H2_ERROR.PROTOCOL_ERROR, ERR_PARSE)
    if (flags & FLAG.END_STREAM) this.complete(slot)
  }

  private readFields(slot: number): void {
    const f = this.sink.fields
    if (this.user) this.user.lastHeaders = f.slice()
    for (let i = 0; i < f.length; i += 2) {
      if (f[i] !== 'server-timing') continue
      if (!parseServerTiming(f[i + 1]!, this)) {
        const phase = this.phase[slot]!
        this.serverTimingInvalid[phase] = (this.serverTimingInvalid[phase] ?? 0) + 1
      }
      this.app[slot] = this.appUs
      this.db[slot] = this.dbUs
    }
    this.appUs = -1
    this.dbUs = -1
  }

  data(stream: number, buf: Buffer, start: number, end: number): void {
    const slot = this.slotOf(stream)
    if (slot >= 0 && this.keepBody[slot]) this.keep(slot, buf, start, end, MAX_CAPTURE_BODY_BYTES)
  }

  dataEnd(stream: number, length: number, flags: number): void {
    const slot = this.slotOf(stream)
    if (slot < 0) {
      this.consumed(stream, length, -STREAM_NO_UPDATE)
      return
    }
    this.wire[slot] = this.wire[slot]! + FRAME_HEADER + length
    this.unacked[slot] = this.consumed(stream, length, this.unacked[slot]!)
    if (this.status[slot] === 0) return this.resetStream(slot, H2_ERROR.PROTOCOL_ERROR, ERR_PARSE)
    if (flags & FLAG.END_STREAM) this.complete(slot)
  }

  // ---- a stream's end ------------------------------------------------------------------------

  private complete(slot: number): void {
    const now = performance.now()
    const status = this.status[slot]!
    const step = this.step[slot]!
    if (this.bodyOff[slot]! >= 0) this.rstStream(this.streamOf[slot]!, H2_ERROR.NO_ERROR)
    if (this.pause) {
      const ms = this.pause(step === NO_STEP ? 0 : step)
      if (ms > 0) this.thinkUntil = now + ms
    }
    const success = step === NO_STEP ? this.success : this.scenario!.steps[step]!.success
    let kind = status < 600 && success[status] === 1 ? 0 : ERR_STATUS
    if (this.scenario) kind = this.advanceScenario(slot, kind)
    this.release(slot)
    this.socketAnswered++
    this.appUs = this.app[slot]!
    this.dbUs = this.db[slot]!
    this.host.response(this, slot, status, this.wire[slot]!, now, kind)
    this.appUs = -1
    this.dbUs = -1
    this.host.pump(this)
  }

  private resetStream(slot: number, code: number, kind: number): void {
    this.rstStream(this.streamOf[slot]!, code)
    this.end(slot, kind)
  }

  /**
   * The slot's request failed with `kind`. A scenario step without an answer ends its pass (a
   * window's end is no failure); a set-up scenario goes on with its captures.
   */
  private end(slot: number, kind: number): void {
    this.release(slot)
    this.host.failed(this, slot, kind)
    if (this.scenario && kind !== ERR_INFLIGHT) this.stepFailed(slot)
  }

  /** A scenario step's answer: its captures read (a success's only), the next step chosen; its error kind. */
  private advanceScenario(slot: number, kind: number): number {
    kind = this.user!.answered(this.step[slot]!, kind, this.keptBody(slot))
    if (kind !== 0) this.host.stepFailed(this.step[slot]!, this.phase[slot]!)
    return kind
  }

  private stepFailed(slot: number): void {
    this.host.stepFailed(this.step[slot]!, this.phase[slot]!)
    this.user!.restart()
  }

  // ---- what the driver asks ------------------------------------------------------------------

  thinking(): boolean {
    return thinkWait(this, this.host)
  }

  failAll(kind: number): void {
    this.forEachBusy((slot) => this.end(slot, kind))
    this.user?.restart()
  }

  expire(now: number, limitMs: number, reopen: boolean): void {
    if (this.socket !== null && !this.ready && now - this.openedAt > limitMs) {
      // No SETTINGS within the limit: the connection could not open (what waits for them, requests
      // a GOAWAY left, timed out), and the socket is made again.
      if (this.inFlight === 0) this.host.connectFailed(this, ERR_TIMEOUT)
      this.forEachBusy((slot) => this.end(slot, ERR_TIMEOUT))
      this.dropSocket()
      if (reopen) this.connect()
      return
    }
    this.forEachBusy((slot) => {
      if (now - this.sentAt[slot]! <= limitMs) return
      if (this.streamOf[slot] !== 0) this.rstStream(this.streamOf[slot]!, H2_ERROR.CANCEL)
      this.end(slot, ERR_TIMEOUT)
    })
  }

  reconnect(): void {
    // In-flight streams finish first (keep-alive off, or after GOAWAY): nothing new on this socket.
    this.draining = true
    if (this.written() > 0) return
    this.needsReconnect = false
    this.closeSocket()
    if (!this.closed) this.connect()
  }

  close(): void {
    this.closed = true
    if (this.thinkTimer) clearTimeout(this.thinkTimer)
    this.thinkTimer = null
    this.closeSocket()
  }
}

/** dataEnd on a stream no longer open: only the connection's window is given back. */
const STREAM_NO_UPDATE = 2 ** 40
