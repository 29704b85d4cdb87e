// Phases: named shares of the connections, each for a time or a request count, one row per phase.
import { Button } from '../../../ui/Primitives.tsx'
import type { PhaseDraft } from '../draft.ts'
import { CheckAt, GroupError, NumberAt, RemoveRow, SelectAt, TextAt } from '../fields.tsx'
import { child, rowsOf, type Part } from '../draftPart.ts'
import type { ProfileFieldsProps } from './types.ts'

function PhaseRow({ phase, i, onRemove }: { phase: Part<PhaseDraft>; i: number; onRemove?: () => void }) {
  const id = `phase-${i}`
  return (
    <div className="phase-row row" data-testid={id}>
      <TextAt part={phase} k="name" label="Phase" testId={`${id}-name`} />
      <NumberAt part={phase} k="share" label="Share (0–1)" min={0} step={0.05} testId={`${id}-share`} />
      <SelectAt
        part={phase}
        k="by"
        label="Length by"
        options={[
          { value: 'duration', label: 'seconds' },
          { value: 'requests', label: 'requests' },
        ]}
        testId={`${id}-by`}
      />
      {phase.value.by === 'duration' ? (
        <NumberAt part={phase} k="duration" label="Seconds" min={0} testId={`${id}-duration`} />
      ) : (
        <NumberAt
          part={phase}
          k="requests"
          label="Requests"
          min={1}
          step={1}
          error={phase.at('requests') ?? phase.at('duration')}
          testId={`${id}-requests`}
        />
      )}
      <CheckAt part={phase} k="warmup" label="Warm-up" testId={`${id}-warmup`} />
      <RemoveRow
        label={`Remove phase ${phase.value.name}`}
        disabled={!onRemove}
        onRemove={() => onRemove?.()}
      />
    </div>
  )
}

export function PhasesEditor({ profile }: ProfileFieldsProps) {
  const phases = child(profile, 'phases')
  const rows = rowsOf(phases)
  return (
    <div className="rows">
      <p className="muted">
        Each phase runs a share of the connections for a time or a request count; statistics are kept per
        phase. A warm-up phase is recorded and shown, but left out of the summary, the thresholds and
        comparisons.
      </p>
      {rows.map(({ row, i }) => (
        <PhaseRow
          key={i}
          phase={row}
          i={i}
          onRemove={rows.length > 1 ? () => phases.set((list) => void list.splice(i, 1)) : undefined}
        />
      ))}
      <Button
        variant="ghost"
        onClick={() =>
          phases.set(
            (list) =>
              void list.push({
                name: `phase-${list.length + 1}`,
                share: 1,
                by: 'duration',
                duration: 10,
                requests: undefined,
                warmup: false,
              }),
          )
        }
        data-testid="phase-add"
      >
        Add phase
      </Button>
      <GroupError message={phases.at()} />
    </div>
  )
}
