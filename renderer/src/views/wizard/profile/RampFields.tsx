// A ramp: from → to connections over a length, then a hold; or stepped, with pauses between steps.
import { CheckAt, NumberAt } from '../fields.tsx'
import { child } from '../draftPart.ts'
import type { ProfileFieldsProps } from './types.ts'

export function RampFields({ profile, connections }: ProfileFieldsProps) {
  const ramp = child(profile, 'ramp', '')
  return (
    <>
      <div className="grid-3">
        <NumberAt part={ramp} k="from" label="From (connections)" min={0} step={1} testId="ramp-from" />
        <NumberAt
          part={ramp}
          k="to"
          label="To (connections)"
          min={1}
          step={1}
          placeholder={String(connections ?? '')}
          testId="ramp-to"
        />
        <NumberAt part={ramp} k="holdSeconds" label="Hold after (s)" min={0} testId="ramp-hold" />
      </div>
      <CheckAt
        part={ramp}
        k="stepped"
        label="Stepped ramp (add connections in steps, with pauses)"
        testId="ramp-stepped"
      />
      {ramp.value.stepped ? (
        <div className="grid-3">
          <NumberAt
            part={ramp}
            k="stepSize"
            label="Step size (connections)"
            min={1}
            step={1}
            testId="ramp-step-size"
          />
          <NumberAt part={ramp} k="stepSeconds" label="Step length (s)" min={0} testId="ramp-step-seconds" />
          <NumberAt
            part={ramp}
            k="pauseSeconds"
            label="Pause between steps (s)"
            min={0}
            testId="ramp-pause"
          />
        </div>
      ) : (
        <NumberAt part={ramp} k="rampSeconds" label="Ramp length (s)" min={0} testId="ramp-seconds" />
      )}
    </>
  )
}
