// The wizard's draft: kept in sessionStorage (it survives navigating away), changed through
// `patch`, and filled from the links into the wizard: #/new?url=…&name=… (from Stacks) adds a
// target, #/new?from=<runId> (run again) loads that run's config.
import { useCallback, useEffect, useState } from 'react'
import { useApi } from '../../api/context.tsx'
import { defaultDraft, emptyTarget, type Draft, type Patch } from './draft.ts'
import { fromConfig } from './fromConfig.ts'
import { withDefaults } from './monitorDraft.ts'

const KEY = 'cannonade.draft'

function loadDraft(): Draft {
  try {
    const raw = sessionStorage.getItem(KEY)
    if (raw) {
      const saved = JSON.parse(raw) as Partial<Draft>
      const base = defaultDraft()
      // Fields added later (scenario steps, stack, sweep, a monitor kind) get their defaults.
      return {
        ...base,
        ...saved,
        targets: (saved.targets ?? base.targets).map((t) => ({
          ...emptyTarget(),
          ...t,
          monitor: withDefaults(t.monitor),
        })),
        sweep: { ...base.sweep, ...saved.sweep },
        agents: { ...base.agents, ...saved.agents },
      }
    }
  } catch {
    // A draft from an older version: start fresh.
  }
  return defaultDraft()
}

/** A target for `url` in the first blank row (or a new one), unless a target has that URL already. */
function withUrl(prev: Draft, url: string, name: string | null): Draft {
  if (prev.targets.some((t) => t.url === url)) return prev
  const next = structuredClone(prev)
  const blank = next.targets.findIndex((t) => t.url.trim() === '')
  const target = emptyTarget(name ?? `target-${next.targets.length + 1}`, url)
  if (blank >= 0) next.targets[blank] = target
  else next.targets.push(target)
  return next
}

export function useDraft(query: URLSearchParams) {
  const api = useApi()
  const [draft, setDraft] = useState<Draft>(loadDraft)
  const [fromRunError, setFromRunError] = useState<string | null>(null)
  const patch: Patch = useCallback((change) => {
    setDraft((prev) => {
      const next = structuredClone(prev)
      change(next)
      return next
    })
  }, [])
  useEffect(() => {
    sessionStorage.setItem(KEY, JSON.stringify(draft))
  }, [draft])

  const url = query.get('url')
  const name = query.get('name')
  const from = query.get('from')
  const [seenUrl, setSeenUrl] = useState<string | null>(null)
  if (url && url !== seenUrl) {
    // Adjusting state while rendering (not in an effect): the new target shows in this render.
    setSeenUrl(url)
    setDraft((prev) => withUrl(prev, url, name))
  }
  useEffect(() => {
    if (!from || !/^\d+$/.test(from)) return
    let live = true
    api.runs.get(Number(from)).then(
      (run) => live && setDraft({ ...fromConfig(run.config), name: `${run.config.name} (again)` }),
      (err: unknown) => live && setFromRunError(err instanceof Error ? err.message : String(err)),
    )
    return () => {
      live = false
    }
  }, [from, api])
  return { draft, setDraft, patch, fromRunError }
}
