// History's filters: a search over name and note, a status, a target name and a tag.
import { RUN_STATUSES } from '#engine/api/types.ts'
import type { Filters, StatusFilter } from './useHistory.ts'

/** A text filter: its label, and the input named for the filter's key. */
function TextFilter({
  label,
  k,
  filters,
  filter,
  placeholder,
  type,
}: {
  label: string
  k: 'search' | 'target' | 'tag'
  filters: Filters
  filter: (change: Partial<Filters>) => void
  placeholder: string
  type?: 'search'
}) {
  return (
    <label>
      {label}
      <input
        type={type}
        value={filters[k]}
        placeholder={placeholder}
        onChange={(e) => filter({ [k]: e.target.value })}
        data-testid={`history-${k}`}
      />
    </label>
  )
}

export function HistoryFilters({
  filters,
  filter,
}: {
  filters: Filters
  filter: (change: Partial<Filters>) => void
}) {
  const bound = { filters, filter }
  return (
    <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
      <TextFilter label="Search" k="search" type="search" placeholder="name or note" {...bound} />
      <label>
        Status
        <select
          value={filters.status}
          onChange={(e) => filter({ status: e.target.value as StatusFilter })}
          data-testid="history-status"
        >
          <option value="">any</option>
          {RUN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <TextFilter label="Target" k="target" placeholder="target name" {...bound} />
      <TextFilter label="Tag" k="tag" placeholder="tag" {...bound} />
    </form>
  )
}
