// History's filters (search, status, target, tag), its page of runs from the engine and the runs
// picked for a comparison or a report.
import { useState } from 'react'
import type { RunListItem, RunStatus } from '#engine/api/types.ts'
import { useApi, useAsync } from '../../api/context.tsx'
import { useDebounced } from '../../lib/useDebounced.ts'
import { toggled, type Picked } from './selection.ts'

export const PAGE = 25
export type StatusFilter = '' | RunStatus

export interface Filters {
  search: string
  status: StatusFilter
  target: string
  tag: string
}

export function useHistory() {
  const api = useApi()
  const [filters, setFilters] = useState<Filters>({ search: '', status: '', target: '', tag: '' })
  const [offset, setOffset] = useState(0)
  const [picked, setPicked] = useState<Picked[]>([])
  const filtered = Object.values(filters).some((v) => v !== '')
  // Strings, not an object: the debounced value must compare equal when nothing changed.
  const search = useDebounced(filters.search.trim())
  const target = useDebounced(filters.target.trim())
  const tag = useDebounced(filters.tag.trim())
  const status = filters.status
  const list = useAsync(
    () =>
      api.runs.list({
        search: search || undefined,
        status: status || undefined,
        target: target || undefined,
        tags: tag ? [tag] : undefined,
        limit: PAGE,
        offset,
      }),
    [api, search, target, tag, status, offset],
  )
  const items: RunListItem[] = list.data?.items ?? []
  return {
    list,
    items,
    total: list.data?.total ?? 0,
    filters,
    filtered,
    /** A filter changed: back to the first page. */
    filter: (change: Partial<Filters>) => {
      setFilters((f) => ({ ...f, ...change }))
      setOffset(0)
    },
    offset,
    setOffset,
    picked,
    toggle: (run: RunListItem) => setPicked((p) => toggled(p, run)),
    /** After a row changed (tags, deleted): forget a deleted run's pick and read the page again. */
    changed: (runId: number) => {
      setPicked((p) => p.filter((x) => x.runId !== runId || items.some((i) => i.runId === x.runId)))
      list.reload()
    },
  }
}
