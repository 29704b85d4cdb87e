// The shell: navigation, theme toggle, connection state, and the routed view. It stands above the
// views it routes to; what they share with it (routing, the nav bar's entries, the theme) is app/.
// Views other than History are loaded on demand so the first render does not wait for the chart
// library.
import { lazy, Suspense, useCallback, useEffect, useSyncExternalStore } from 'react'
import { useApi, useApiEnv, useConnection } from './api/context.tsx'
import { Banner } from './ui/Primitives.tsx'
import { liveStore } from './views/live/liveStore.ts'
import { History } from './views/history/History.tsx'
import { NAV } from './app/nav.ts'
import { Link, useRoute } from './app/router.tsx'
import { applyTheme, storedTheme, useTheme, type ThemeChoice } from './app/theme.ts'

const Wizard = lazy(() => import('./views/wizard/Wizard.tsx'))
const LiveRun = lazy(() => import('./views/live/LiveRun.tsx'))
const RunDetail = lazy(() => import('./views/detail/RunDetail.tsx'))
const Compare = lazy(() => import('./views/compare/Compare.tsx'))
const Stacks = lazy(() => import('./views/stacks/Stacks.tsx'))
const Studies = lazy(() => import('./views/studies/Studies.tsx'))
const Settings = lazy(() => import('./views/settings/Settings.tsx'))

function View() {
  const route = useRoute()
  const [section = 'runs', id] = route.path
  const runId = id !== undefined && /^\d+$/.test(id) ? Number(id) : null
  switch (section) {
    case 'new':
      return <Wizard query={route.query} />
    case 'live':
      return <LiveRun runId={runId} />
    case 'runs':
      return runId !== null ? <RunDetail runId={runId} /> : <History />
    case 'studies':
      return <Studies studyId={runId} />
    case 'compare':
      return <Compare query={route.query} />
    case 'stacks':
      return <Stacks />
    case 'settings':
      return <Settings />
    default:
      return <History />
  }
}

const THEME_LABEL: Record<ThemeChoice, string> = {
  system: 'Theme: system',
  light: 'Theme: light',
  dark: 'Theme: dark',
}

export function App() {
  const api = useApi()
  const { mode } = useApiEnv()
  const route = useRoute()
  const connection = useConnection()
  const saveTheme = useCallback(
    (theme: ThemeChoice) => void api.settings.set({ theme }).catch(() => {}),
    [api],
  )
  const theme = useTheme(saveTheme)
  const liveCount = useSyncExternalStore(liveStore.subscribe, () => liveStore.running().length)

  useEffect(() => {
    window.__cannonadeFirstRender ??= performance.now()
    document.documentElement.dataset.ready = 'true'
  }, [])
  // A theme saved in settings (e.g. from the desktop app) wins over this browser's default.
  useEffect(() => {
    api.settings.get().then(
      (s) => {
        if (storedTheme() === 'system' && s.theme !== 'system') applyTheme(s.theme)
      },
      () => {},
    )
  }, [api])

  const section = route.path[0] ?? 'runs'
  return (
    <div className="shell" data-testid="app-ready">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <img src="./favicon.svg" alt="" width={24} height={24} />
          <span>Cannonade</span>
        </div>
        <ul>
          {NAV.map((n) => (
            <li key={n.to}>
              <Link to={n.to} data-testid={n.testId} aria-current={section === n.match ? 'page' : undefined}>
                {n.label}
                {n.match === 'live' && liveCount > 0 ? (
                  <span className="nav-badge" data-testid="nav-live-count">
                    {liveCount}
                  </span>
                ) : null}
              </Link>
            </li>
          ))}
        </ul>
        <div className="sidebar-foot">
          <button
            type="button"
            className="btn btn-ghost"
            onClick={theme.cycle}
            data-testid="theme-toggle"
            aria-label={`${THEME_LABEL[theme.choice]} (change)`}
          >
            {THEME_LABEL[theme.choice]}
          </button>
          <div className="mode">{mode === 'desktop' ? 'Desktop' : 'Web mode'}</div>
        </div>
      </nav>
      <main id="main" tabIndex={-1}>
        {connection === 'unauthorized' ? (
          <Banner kind="error" testId="no-token">
            This page has no access token. Open the URL that <code>cannonade serve</code> printed (it ends in{' '}
            <code>?token=…</code>).
          </Banner>
        ) : null}
        {mode === 'web' && connection === 'closed' ? (
          <Banner kind="warning" testId="connection-lost">
            Lost the connection to the Cannonade server; reconnecting… Live charts resume when it is back.
          </Banner>
        ) : null}
        <Suspense fallback={<div className="loading">Loading…</div>}>
          <View />
        </Suspense>
      </main>
    </div>
  )
}
