// What an experiment's result says, read back from the results database through the engine host
// as the app reads it: the study page's figures (studies.get), the compare page's (runs.compare),
// the runs themselves, the study CSV's columns and the PDF report's table of a run, so every number
// in docs/results.md is one the app, an export or the report shows.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CompareResult, RunSummary, StudyResults } from '../../engine/api/types.ts'
import type { RunConfig } from '../../engine/config/schema.ts'
import type { EngineHost } from '../../engine/host/index.ts'
import { entryFigures } from '../../engine/report/comparison.ts'
import { loadReportData } from '../../engine/report/data.ts'
import { openDb } from '../../engine/db/db.ts'
import { HistoryStore } from '../../engine/store/history-store.ts'
import type { Found } from './experiments.ts'
import { judgeSection, parseGate, type Gate, type Judgement, type QuietRule } from './quiet.ts'

/** RFC 4180, as engine/exports/write.ts writes it: quoted fields may hold commas and quotes. */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  const endField = () => {
    row.push(field)
    field = ''
  }
  const endRow = () => {
    endField()
    rows.push(row)
    row = []
  }
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quoted && ch === '"' && text[i + 1] === '"') {
      field += '"'
      i++
    } else if (ch === '"') quoted = !quoted
    else if (quoted) field += ch
    else if (ch === ',') endField()
    else if (ch === '\n') endRow()
    else if (ch !== '\r') field += ch
  }
  if (field || row.length) endRow()
  const [head, ...body] = rows
  return body.map((r) => Object.fromEntries((head ?? []).map((h, i) => [h, r[i] ?? ''])))
}

export interface Result {
  found: Found
  runs: (RunSummary & { config: RunConfig })[]
  /** The study page's figures, for a sweep. */
  study: StudyResults | null
  /** The study CSV's rows (a row per value and target), for a sweep. */
  studyRows: Record<string, string>[]
  /** The compare page's comparison of each run's targets, for runs of several targets. */
  compares: Map<number, CompareResult>
  /** A one-target study's runs compared with its first value's (the compare page of its runs). */
  across: CompareResult | null
  /** Per target of the first run: its CPU %, as the PDF report's table of the run gives it. */
  cpuMean: Map<string, number>
  /** The load average each run's note kept: at its start and at its end. */
  load: { start: number; end: number }[]
  /** How the machine was as the experiment started (its runs' notes), null for runs before it was kept. */
  gate: Gate | null
  /** Whether the machine was busier than its cores while it was measured (bench/results/quiet.ts). */
  judgement: Judgement
}

/** A number from a CSV cell; null for an empty one. */
export const num = (s: string | undefined): number | null => (s === undefined || s === '' ? null : Number(s))

/** Per target of a run: its CPU % as the PDF report's side-by-side table gives it (mean over its seconds under load). */
function reportCpu(dbPath: string, runId: number): Map<string, number> {
  const db = openDb(dbPath, { readonly: true })
  try {
    const entries = entryFigures(loadReportData(new HistoryStore(db), [runId]))
    return new Map(entries.flatMap((e) => (e.cpu === null ? [] : [[e.target, e.cpu] as const])))
  } finally {
    db.close()
  }
}

const LOAD_NOTE = /load average ([\d.]+) at the start, ([\d.]+) at the end/

/** Each run's targets compared, against `baseline` (a target's name) where it has one. */
async function compareTargets(engine: EngineHost, runs: Result['runs'], baseline?: string) {
  const out = new Map<number, CompareResult>()
  for (const run of runs) {
    if (run.config.targets.length < 2) continue
    const base = run.config.targets.some((t) => t.name === baseline)
      ? { runId: run.runId, target: baseline! }
      : null
    out.set(
      run.runId,
      await engine.runs.compare({ runIds: [run.runId], ...(base ? { baseline: base } : {}) }),
    )
  }
  return out
}

export async function readResult(
  engine: EngineHost,
  found: Found,
  rule: Pick<QuietRule, 'maxDisturbedShare'>,
  baseline?: string,
): Promise<Result> {
  const runs = await Promise.all(found.runIds.map((id) => engine.runs.get(id)))
  const tmp = mkdtempSync(join(tmpdir(), 'cannonade-results-'))
  try {
    let study: StudyResults | null = null
    let studyRows: Record<string, string>[] = []
    if (found.studyId !== null) {
      study = await engine.studies.get(found.studyId)
      const out = join(tmp, 'study.csv')
      await engine.local.exportStudyCsv(found.studyId, out)
      studyRows = parseCsv(readFileSync(out, 'utf8'))
    }
    const first = runs[0]!
    const compares = await compareTargets(engine, runs, baseline)
    // Explicit pairs: left to itself, the compare page draws a study's runs as a curve, not pairs.
    const target = first.config.targets[0]!.name
    const ref = (runId: number) => ({ runId, target })
    const across =
      study && runs.length > 1 && first.config.targets.length === 1
        ? await engine.runs.compare({
            runIds: runs.map((x) => x.runId),
            pairs: runs.slice(1).map((x) => ({ baseline: ref(first.runId), other: ref(x.runId) })),
          })
        : null
    const load = runs.flatMap((r) => {
      const m = LOAD_NOTE.exec(r.note)
      return m ? [{ start: Number(m[1]), end: Number(m[2]) }] : []
    })
    // A busy gate in any run's note makes the experiment's; the first run's otherwise.
    const gates = runs.flatMap((r) => parseGate(r.note) ?? [])
    const gate = gates.find((g) => !g.quiet) ?? gates[0] ?? null
    return {
      found,
      runs,
      gate,
      judgement: judgeSection(runs, gate, rule),
      study,
      studyRows,
      compares,
      across,
      cpuMean: reportCpu(engine.dbPath, first.runId),
      load,
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}
