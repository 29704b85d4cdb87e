// A request's headers as rows of name and value (a target's, a scenario step's). The config keeps
// them as a record, so a header's message is keyed by its name under `headers`.
import { Button } from '../../ui/Primitives.tsx'
import { RemoveRow, TextAt } from './fields.tsx'
import { rowsOf, type Part } from './draftPart.ts'

export type HeaderDraft = { name: string; value: string }

export function HeaderRows({
  headers,
  id,
  valuePlaceholder,
}: {
  headers: Part<HeaderDraft[]>
  /** The data-testid prefix of the rows (`target-0`, `target-0-step-1`). */
  id: string
  valuePlaceholder?: string
}) {
  return (
    <>
      {rowsOf(headers).map(({ row, i }) => (
        <div className="grid-2 header-row" key={i}>
          <TextAt
            part={row}
            k="name"
            label="Header"
            error={row.value.name ? headers.at(row.value.name) : undefined}
            testId={`${id}-header-${i}-name`}
          />
          <div className="url-row">
            <TextAt
              className="grow"
              part={row}
              k="value"
              label="Value"
              placeholder={valuePlaceholder}
              error={undefined}
              testId={`${id}-header-${i}-value`}
            />
            <RemoveRow
              label={`Remove header ${row.value.name}`}
              onRemove={() => headers.set((list) => void list.splice(i, 1))}
            />
          </div>
        </div>
      ))}
    </>
  )
}

export function AddHeader({ headers, id }: { headers: Part<HeaderDraft[]>; id: string }) {
  return (
    <Button
      variant="ghost"
      onClick={() => headers.set((list) => void list.push({ name: '', value: '' }))}
      data-testid={`${id}-add-header`}
    >
      Add header
    </Button>
  )
}
