// A run of load agents once its rows exist (distributed.ts prepares it): the coordinator's merged
// seconds, segments and uploaded raw blocks written to the app's database, the targets' monitors
// sampled here once, the launcher started and followed, and exactly one end whatever happens.
import type { RunEndedEvent, RunSummary } from '../api/types.ts'
import type { AgentsConfig, RunConfig } from '../config/schema.ts'
import { redactText } from '../config/redact.ts'
import { ResourceRecorder } from '../runner/resource-recorder.ts'
import type { RunHooks } from '../runner/supervisor.ts'
import { insertRawBlocks } from '../store/agents.ts'
import type { Db } from '../db/db.ts'
import { LedgerWriter } from '../store/ledger-writer.ts'
import { HistoryStore } from '../store/history-store.ts'
import { finishRun } from '../store/runs.ts'
import { measureOffset } from './coordination/clock.ts'
import { Coordinator, type CoordinatorHooks } from './coordination/coordinator.ts'
import { wallMs } from './coordination/memory.ts'
import type { CoordinatorStore, RunSpec } from './coordination/protocol.ts'
import { agentEnv } from './env.ts'
import type { Launcher } from './launchers/launcher.ts'
import { joinCommand } from './launchers/external.ts'
import type { StackLocator } from '../monitor/index.ts'
import { finishDistributed } from './merge/finish.ts'

/** What distributed.ts prepared: the run's rows exist, its store and launcher are chosen. */
export interface PreparedRun {
  db: Db
  config: RunConfig
  agents: AgentsConfig
  runId: number
  prefix: string
  spec: RunSpec
  store: CoordinatorStore
  launcher: Launcher
  hooks: RunHooks
  secrets?: Record<string, string>
  stacks?: StackLocator
  dockerHost?: string
  secretsDir?: string
  /** The PostgreSQL store's URL, for the line external agents run (masked there). */
  storeUrl?: string
}

type Level = 'info' | 'warn' | 'error'

export class AgentsRun {
  readonly done: Promise<RunSummary>
  private readonly p: PreparedRun
  private readonly resources: ResourceRecorder
  private readonly coordinator: Coordinator
  private settle!: { resolve(s: RunSummary): void; reject(e: Error): void }
  private uploaded = 0
  /** The store's clock against ours: its instants (releases, heartbeats) map onto this machine's. */
  private offsetMs = 0
  private t0Local = 0
  private killed = false

  constructor(p: PreparedRun) {
    this.p = p
    this.done = new Promise<RunSummary>((resolve, reject) => (this.settle = { resolve, reject }))
    this.resources = new ResourceRecorder(p.db, p.runId, p.config, {
      secrets: p.secrets,
      ...(p.stacks ? { stacks: p.stacks } : {}),
      ...(p.dockerHost ? { dockerHost: p.dockerHost } : {}),
      ...(p.secretsDir ? { secretsDir: p.secretsDir } : {}),
      onLog: (level, message) => this.log(level, message),
    })
    this.coordinator = new Coordinator({
      runId: p.runId,
      config: p.config,
      agents: p.agents.count,
      store: p.store,
      lostAfterMs: p.spec.lostAfterMs,
      barrierTimeoutMs: p.agents.barrierTimeoutSeconds * 1000,
      hooks: this.coordinatorHooks(),
    })
    p.launcher.follow((e) => {
      this.coordinator.onLauncherEvent(e)
      if (e.type === 'log')
        this.log(
          'info',
          e.index === null ? e.line : `agent ${e.index}: ${e.line.replace(/^agent \d+\/\d+:? ?/, '')}`,
        )
    })
  }

  log(level: Level, message: string): void {
    this.p.hooks.onLog?.(level, message)
  }

  stop(): void {
    this.coordinator.stop()
  }

  kill(): void {
    this.killed = true
    this.coordinator.stop()
    void this.p.launcher.stop({ kill: true })
  }

  /** The store opened, clocks compared, monitors and agents started; on failure the run is failed. */
  async launch(): Promise<void> {
    const { store, launcher, agents, runId, spec } = this.p
    this.log(
      'info',
      `run ${runId}: ${agents.count} agents (${launcher.kind}) join with CANNONADE_RUN=${spec.runKey} CANNONADE_AGENT_COUNT=${agents.count}`,
    )
    try {
      await store.open(spec)
      if (store.kind === 'postgres') this.offsetMs = (await measureOffset(() => store.now(), wallMs)).offsetMs
      this.resources.start()
      await launcher.start(agentEnv({ runKey: spec.runKey, count: agents.count }), agents.count)
    } catch (err) {
      await launcher.stop({ kill: true }).catch(() => {})
      await this.resources.stop()
      await store.close({ purge: true }).catch(() => {})
      finishRun(this.p.db, runId, 'failed', { error: err instanceof Error ? err.message : String(err) })
      throw err
    }
    this.finish().catch((err: unknown) =>
      this.settle.reject(err instanceof Error ? err : new Error(String(err))),
    )
  }

  private coordinatorHooks(): CoordinatorHooks {
    const { db, runId, hooks, agents } = this.p
    const writer = new LedgerWriter(db, runId)
    const join =
      agents.on === 'external' && this.p.storeUrl
        ? joinCommand(
            { runKey: this.p.spec.runKey, count: agents.count, storeUrl: this.p.storeUrl },
            agents.barrierTimeoutSeconds,
          )
        : undefined
    return {
      onStarted: (t0Store) => {
        this.t0Local = t0Store - this.offsetMs
        this.resources.setT0(this.t0Local)
        hooks.onStarted?.({ runId, t0Epoch: this.t0Local, pid: process.pid })
      },
      onSecond: (seg, m, event) => {
        writer.insertSeries(m.point, seg.targetIndex, m.phase, m.statusJson, m.point.agents ?? null)
        for (const a of event.agents ?? []) {
          this.resources.record({
            t: this.t0Local + (m.point.t + 1) * 1000,
            source: 'generator',
            target: 'generator',
            instance: `agent-${a.index}`,
            cpuPercent: a.generatorCpu,
            memoryBytes: null,
            memoryLimitBytes: null,
            cpuLimit: null,
            state: a.state,
          })
        }
        hooks.onProgress?.({ ...event, resources: this.resources.drain() })
      },
      onSegment: (seg, summary) => {
        writer.writeSummary(seg.targetIndex, summary)
        hooks.onSegment?.(summary)
      },
      onBlocks: (blocks) => {
        this.uploaded += insertRawBlocks(db, runId, blocks)
      },
      onLog: (level, message) => this.log(level, message),
      onAgents: (live, waiting) =>
        hooks.onAgents?.({
          type: 'agents',
          runId,
          agents: live,
          waiting,
          ...(join && waiting.length > 0 ? { join } : {}),
        }),
    }
  }

  private async finish(): Promise<void> {
    const { db, runId, config, store, launcher, spec, agents } = this.p
    let ended: RunEndedEvent
    try {
      const outcome = await this.coordinator.run()
      await launcher.stop({ kill: this.killed })
      await this.resources.stop()
      const end = await finishDistributed({
        db,
        runId,
        config,
        agents: agents.count,
        store,
        outcome,
        launcher: launcher.kind,
        heartbeatMs: spec.heartbeatMs,
        lostAfterMs: spec.lostAfterMs,
        raw: spec.raw,
      })
      if (this.uploaded > 0) this.log('info', `${this.uploaded} raw requests uploaded by the agents`)
      ended = { type: 'ended', runId, status: end.status, error: end.error }
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err)
      await launcher.stop({ kill: true }).catch(() => {})
      await this.resources.stop().catch(() => {})
      finishRun(db, runId, 'failed', { error })
      ended = { type: 'ended', runId, status: 'failed', error }
    }
    await store
      .close({ purge: true })
      .catch((err: unknown) => this.log('warn', `coordination store: ${redactText(String(err))}`))
    this.p.hooks.onEnded?.(ended)
    this.settle.resolve(new HistoryStore(db).getRun(runId))
  }
}
