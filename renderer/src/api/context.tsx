// The Api as React context, plus the few hooks every view uses to call it.
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react'
import type { Api } from '#engine/api/api.ts'
import type { DesktopBridge } from '#engine/api/transport/bridge.ts'
import type { Unsubscribe } from '#engine/api/types.ts'
import type { FileAccess } from './files.ts'
import type { ConnectionState } from './web.ts'

export interface ApiEnv {
  api: Api
  mode: 'web' | 'desktop'
  desktop: DesktopBridge | null
  connection: { get: () => ConnectionState; subscribe: (cb: () => void) => Unsubscribe }
  /** Getting at the files exports and reports write (download in web mode, open on the desktop). */
  files: FileAccess
}

const Ctx = createContext<ApiEnv | null>(null)

export function ApiProvider({ env, children }: { env: ApiEnv; children: ReactNode }) {
  return <Ctx.Provider value={env}>{children}</Ctx.Provider>
}

export function useApiEnv(): ApiEnv {
  const env = useContext(Ctx)
  if (!env) throw new Error('useApi outside ApiProvider')
  return env
}

export function useApi(): Api {
  return useApiEnv().api
}

export function useFiles(): FileAccess {
  return useApiEnv().files
}

export function useConnection(): ConnectionState {
  const { connection } = useApiEnv()
  return useSyncExternalStore(connection.subscribe, connection.get)
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

export interface AsyncState<T> {
  data: T | undefined
  error: string | null
  loading: boolean
  reload: () => void
}

/**
 * Load something from the Api; reloads when `deps` change or `reload()` is called. A stale
 * answer (deps changed meanwhile) is dropped, so a slow call cannot overwrite a newer one.
 */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): AsyncState<T> {
  // A new object whenever the inputs change (or reload is asked for): the answer to wait for.
  const [request, setRequest] = useState<object>(() => ({}))
  const [seenDeps, setSeenDeps] = useState(deps)
  if (seenDeps.length !== deps.length || seenDeps.some((d, i) => !Object.is(d, deps[i]))) {
    setSeenDeps(deps)
    setRequest({})
  }
  const [state, setState] = useState<{ for: object | null; data: T | undefined; error: string | null }>({
    for: null,
    data: undefined,
    error: null,
  })
  useEffect(() => {
    let live = true
    load().then(
      (data) => live && setState({ for: request, data, error: null }),
      (err: unknown) => live && setState((s) => ({ for: request, data: s.data, error: errorMessage(err) })),
    )
    return () => {
      live = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `request` stands for the caller's deps
  }, [request])
  const reload = useCallback(() => setRequest({}), [])
  return { data: state.data, error: state.error, loading: state.for !== request, reload }
}

/** Run an action from a button: tracks busy and error so the button can show both. */
export function useAction<A extends unknown[], T>(action: (...args: A) => Promise<T>) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const ref = useRef(action)
  useLayoutEffect(() => {
    ref.current = action
  })
  const run = useCallback(async (...args: A): Promise<T | undefined> => {
    setBusy(true)
    setError(null)
    try {
      return await ref.current(...args)
    } catch (err) {
      setError(errorMessage(err))
      return undefined
    } finally {
      setBusy(false)
    }
  }, [])
  return { run, busy, error, setError }
}
