// Which study a run belongs to. RunListItem and RunSummary carry no study id, so the index is
// built from studies.list (each study's run ids).
import { useMemo } from 'react'
import type { StudyListItem } from '#engine/api/types.ts'
import { useApi, useAsync } from '../../api/context.tsx'

export interface StudyIndex {
  byRun: ReadonlyMap<number, StudyListItem>
  studies: readonly StudyListItem[]
  error: string | null
}

/** `refresh`: anything that changes when the index may be stale (a run ended, a list reloaded). */
export function useStudyIndex(refresh: unknown = null): StudyIndex {
  const api = useApi()
  const list = useAsync(() => api.studies.list(), [api, refresh])
  return useMemo(() => {
    const byRun = new Map<number, StudyListItem>()
    for (const s of list.data ?? []) for (const id of s.runIds) byRun.set(id, s)
    return { byRun, studies: list.data ?? [], error: list.error }
  }, [list.data, list.error])
}
