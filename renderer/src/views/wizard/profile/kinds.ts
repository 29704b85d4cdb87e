// One entry per profile kind of engine/config/schema-load.ts: its label in the shape picker and the
// component with its fields (null for a kind without fields of its own). A new kind is a compile
// error here until it has both (and in ../draft.ts and ../fromConfig.ts until the draft carries it).
import type { ComponentType } from 'react'
import type { ProfileKind } from '../draft.ts'
import { BurstFields } from './BurstFields.tsx'
import { PhasesEditor } from './PhasesEditor.tsx'
import { RampFields } from './RampFields.tsx'
import { StagesEditor } from './StagesEditor.tsx'
import type { ProfileFieldsProps } from './types.ts'

export const PROFILE_KINDS: Record<
  ProfileKind,
  { label: string; Fields: ComponentType<ProfileFieldsProps> | null }
> = {
  constant: { label: 'Constant (big bang)', Fields: null },
  ramp: { label: 'Ramp (linear or stepped)', Fields: RampFields },
  burst: { label: 'Bursts (periodic)', Fields: BurstFields },
  phases: { label: 'Phases (warmup, load, peak…)', Fields: PhasesEditor },
  stages: { label: 'Stages (interpolated)', Fields: StagesEditor },
}

/** The shape picker's options, in the order above. */
export const PROFILE_KIND_OPTIONS = (Object.keys(PROFILE_KINDS) as ProfileKind[]).map((value) => ({
  value,
  label: PROFILE_KINDS[value].label,
}))
