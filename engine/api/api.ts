// The one contract every transport implements: Electron IPC through the preload, HTTP +
// WebSocket in web mode, direct calls in the CLI and tests. Its operations and events are listed in
// ./channels.ts (the compiler keeps the two in step); arguments are parsed with ./schemas.ts.
import type { RunConfig } from '../config/schema.ts'
import type { Args, Settings, SettingsPatch } from './schemas.ts'
import type {
  CompareResult,
  DistributionCurve,
  ExportProgressEvent,
  ExportResult,
  ImportedScenario,
  ProbeResult,
  ProgressEvent,
  ReportProgressEvent,
  LedgerInfo,
  MachineLoad,
  ResourcePoint,
  RunEndedEvent,
  AgentsEvent,
  RunListItem,
  RunSummary,
  RunWarningEvent,
  SampleRow,
  SeriesPoint,
  StackInfo,
  StackLogEvent,
  StackStatus,
  StudyListItem,
  StudyResults,
  TemplateInfo,
  Unsubscribe,
  ValidationResult,
} from './types.ts'

export interface Api {
  runs: {
    validate(config: unknown): Promise<ValidationResult>
    /**
     * A config with `sweep` starts a study: one run per value, the first one's id returned. While
     * another run is going on this database the start is refused (ApiError 'conflict'), unless
     * `allowConcurrent`: then both runs say they shared the load generator.
     */
    start(config: unknown, opts?: Args<'runs:start'>[1]): Promise<{ runId: number; studyId?: number }>
    stop(runId: number): Promise<void>
    active(): Promise<number[]>
    /** How busy this machine is now: said before a run when it is busier than its cores. */
    machine(): Promise<MachineLoad>
    list(query?: Args<'runs:list'>[0]): Promise<{ items: RunListItem[]; total: number }>
    get(runId: number): Promise<RunSummary & { config: RunConfig }>
    series(runId: number, opts?: { maxPoints?: number }): Promise<SeriesPoint[]>
    resources(runId: number): Promise<ResourcePoint[]>
    /** Per target, the latency distribution of its finished rounds merged (a band over rounds). */
    distribution(runId: number): Promise<DistributionCurve[]>
    samples(runId: number, query?: Args<'runs:samples'>[1]): Promise<{ rows: SampleRow[]; total: number }>
    compare(query: Args<'runs:compare'>[0]): Promise<CompareResult>
    delete(runId: number): Promise<void>
    tag(runId: number, tags: string[]): Promise<void>
    note(runId: number, note: string): Promise<void>
    /**
     * The raw ledger: its size (requests, ≈ bytes), whether it was pruned, how much is still
     * being written as rows, and where requests its load agents kept are.
     */
    ledger(runId: number): Promise<LedgerInfo>
    /** Drop a run's raw samples, keeping its summaries, series and histograms. */
    prune(runId: number): Promise<LedgerInfo>
    onProgress(cb: (event: ProgressEvent) => void): Unsubscribe
    onEnded(cb: (event: RunEndedEvent) => void): Unsubscribe
    /** A monitor of a running run could not read its source (also in the run's `warnings`). */
    onWarning(cb: (event: RunWarningEvent) => void): Unsubscribe
    /** A run of load agents: its agents joining, ready, ending or lost (AgentsEvent). */
    onAgents(cb: (event: AgentsEvent) => void): Unsubscribe
  }
  studies: {
    list(): Promise<StudyListItem[]>
    get(studyId: number): Promise<StudyResults>
    /** Ready-made studies, one per YAML file in resources/templates/. */
    templates(): Promise<TemplateInfo[]>
  }
  targets: {
    /** Does this URL answer? One GET, with its status and time (the wizard's check). */
    probe(url: string, opts?: { insecure?: boolean }): Promise<ProbeResult>
  }
  scenarios: {
    /**
     * A RunConfig with one scenario step per request of a HAR file, curl commands or an OpenAPI 3
     * document (the text itself: the wizard reads the file), secrets masked as `${variable}`s.
     */
    import(source: Args<'scenarios:import'>[0]): Promise<ImportedScenario>
  }
  stacks: {
    list(): Promise<StackInfo[]>
    /** Starts (or restarts with other settings) a stack; `replicas` > 1 puts a load balancer in front (Docker). */
    up(name: string, opts?: { native?: boolean; replicas?: number }): Promise<StackStatus>
    /** Stops a stack; its database volume is deleted only with `volumes: true`. */
    down(name: string, opts?: { volumes?: boolean }): Promise<void>
    status(): Promise<StackStatus[]>
    onLog(cb: (event: StackLogEvent) => void): Unsubscribe
  }
  monitor: {
    test(spec: unknown): Promise<{ ok: boolean; message: string; instances: number }>
  }
  exports: {
    pg(runIds: number[], opts: { url: string }): Promise<ExportResult>
    /** Connect and check permissions without writing: the settings' test button. */
    pgTest(opts: { url: string }): Promise<{ ok: boolean; message: string }>
    csv(runId: number, opts: { kind?: 'samples' | 'series' }): Promise<ExportResult>
    json(runIds: number[]): Promise<ExportResult>
    junit(runId: number): Promise<ExportResult>
    /** A study as one CSV: a row per swept value (or pair of values) and target. */
    studyCsv(studyId: number): Promise<ExportResult>
    onProgress(cb: (event: ExportProgressEvent) => void): Unsubscribe
  }
  reports: {
    /**
     * `compare`: the comparison as the user made it (the Compare page's baseline, margin, pairs or
     * curve); page 1 compares so and states the baseline and margin.
     */
    create(
      runIds: number[],
      opts?: { format?: 'pdf' | 'html'; compare?: Omit<Args<'runs:compare'>[0], 'runIds'> },
    ): Promise<ExportResult>
    /** Each stage of a report being made (loading data, building html, rendering pdf, done). */
    onProgress(cb: (event: ReportProgressEvent) => void): Unsubscribe
  }
  settings: {
    get(): Promise<Settings>
    /** Changes the keys given; a key set to null (or '') is removed. */
    set(patch: SettingsPatch): Promise<Settings>
  }
}
