// Shapes of the JSON columns of 015_rounds_noise.sql, checked where they are read: run_targets.noise
// (a round's noise) and runs.rounds (how its rounds ended). Lenient like schemas.ts: a field a
// newer runner adds is dropped, a missing one has its neutral value.
import { z } from 'zod'
import {
  STOP_REASONS,
  type MachineLoad,
  type RoundNoise,
  type RoundsWidth,
  type StopReason,
} from '../api/types.ts'

const num = z.number().nullable().catch(null)

export const RoundNoiseSchema = z.object({
  loadAverage: num,
  cores: z.number().catch(1),
  stealPercent: num,
  otherCpuPercent: num,
  generatorCpuPercent: num,
  sendLagMs: num,
  targetCpuPercent: num,
  targetCpuLimitPercent: num,
  disturbed: z.boolean().catch(false),
  reasons: z.array(z.string()).catch([]),
  repeated: z.boolean().catch(false),
}) satisfies z.ZodType<RoundNoise>

const WidthSchema = z.object({
  baseline: z.string(),
  other: z.string(),
  metric: z.enum(['p50', 'p99', 'throughput']),
  halfWidth: z.number().nullable(),
  settled: z.enum(['precise', 'decided']).nullable(),
}) satisfies z.ZodType<RoundsWidth>

/** runs.rounds: the decision that ended the rounds (the words are made when read). */
export const StoredStopSchema = z.object({
  reason: z.enum(STOP_REASONS),
  round: z.number(),
  kept: z.number(),
  widths: z.array(WidthSchema).catch([]),
})

export interface StoredStop {
  reason: StopReason
  round: number
  kept: number
  widths: RoundsWidth[]
}

/** environment.details.machine: how busy the machine was as the run started. */
export const MachineLoadSchema = z.object({
  cores: z.number(),
  loadAverage: z.number().nullable(),
  busyPercent: z.number().nullable(),
  busy: z.boolean(),
  top: z.array(z.object({ name: z.string(), cpuPercent: z.number() })).catch([]),
  sampledAt: z.string(),
  words: z.string().nullable(),
}) satisfies z.ZodType<MachineLoad>
