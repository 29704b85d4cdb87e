// Stages: connections move linearly from one stage's count to the next, one row per stage.
import { Button } from '../../../ui/Primitives.tsx'
import type { Num } from '../draft.ts'
import { GroupError, NumberAt, RemoveRow } from '../fields.tsx'
import { child, rowsOf, type Part } from '../draftPart.ts'
import type { ProfileFieldsProps } from './types.ts'

type StageDraft = { duration: Num; connections: Num }

function StageRow({ stage, i, onRemove }: { stage: Part<StageDraft>; i: number; onRemove?: () => void }) {
  const id = `stage-${i}`
  return (
    <div className="grid-3 row" data-testid={id}>
      <NumberAt part={stage} k="duration" label="Seconds" min={0} testId={`${id}-duration`} />
      <NumberAt
        part={stage}
        k="connections"
        label="Connections at end"
        min={0}
        step={1}
        testId={`${id}-connections`}
      />
      <RemoveRow label={`Remove stage ${i + 1}`} disabled={!onRemove} onRemove={() => onRemove?.()}>
        Remove
      </RemoveRow>
    </div>
  )
}

export function StagesEditor({ profile, connections }: ProfileFieldsProps) {
  const stages = child(profile, 'stages')
  const rows = rowsOf(stages)
  return (
    <div className="rows">
      <p className="muted">
        Connections move linearly from one stage's count to the next over the stage's length.
      </p>
      {rows.map(({ row, i }) => (
        <StageRow
          key={i}
          stage={row}
          i={i}
          onRemove={rows.length > 1 ? () => stages.set((list) => void list.splice(i, 1)) : undefined}
        />
      ))}
      <Button
        variant="ghost"
        onClick={() => stages.set((list) => void list.push({ duration: 10, connections: connections ?? 1 }))}
        data-testid="stage-add"
      >
        Add stage
      </Button>
      <GroupError message={stages.at()} />
    </div>
  )
}
