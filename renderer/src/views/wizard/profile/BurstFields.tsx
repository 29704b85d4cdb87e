// Bursts: a big bang for burstSeconds, idle for idleSeconds, repeated.
import { NumberAt } from '../fields.tsx'
import { child } from '../draftPart.ts'
import type { ProfileFieldsProps } from './types.ts'

export function BurstFields({ profile, connections }: ProfileFieldsProps) {
  const burst = child(profile, 'burst', '')
  return (
    <div className="grid-3">
      <NumberAt part={burst} k="burstSeconds" label="Burst (s)" min={0} testId="burst-seconds" />
      <NumberAt part={burst} k="idleSeconds" label="Idle between (s)" min={0} testId="burst-idle" />
      <NumberAt
        part={burst}
        k="connections"
        label="Connections in a burst"
        min={1}
        step={1}
        placeholder={String(connections ?? '')}
        testId="burst-connections"
      />
    </div>
  )
}
