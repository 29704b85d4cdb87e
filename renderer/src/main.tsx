// Entry: pick the transport (the Electron preload bridge when present, HTTP + WebSocket
// otherwise), build the one Api client, and render.
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { bridgeTransport, type Bridge, type DesktopBridge } from '#engine/api/transport/bridge.ts'
import { createApiClient } from '#engine/api/transport/client.ts'
import type { Unsubscribe } from '#engine/api/types.ts'
import type { ApiEnv } from './api/context.tsx'
import { ApiProvider } from './api/context.tsx'
import { desktopFiles, webFiles } from './api/files.ts'
import { takeToken, webTransport, type ConnectionState } from './api/web.ts'
import { App } from './App.tsx'
import { applyTheme, storedTheme } from './app/theme.ts'
import { liveStore } from './views/live/liveStore.ts'
import './styles.css'
import './tools.css'

declare global {
  interface Window {
    cannonade?: Bridge
    cannonadeDesktop?: DesktopBridge
    /** ms from navigation start to the first committed render (read by the e2e timing test). */
    __cannonadeFirstRender?: number
  }
}

applyTheme(storedTheme())

function environment(): ApiEnv {
  if (window.cannonade) {
    const open = { get: (): ConnectionState => 'open', subscribe: (): Unsubscribe => () => {} }
    return {
      api: createApiClient(bridgeTransport(window.cannonade)),
      mode: 'desktop',
      desktop: window.cannonadeDesktop ?? null,
      connection: open,
      files: desktopFiles(window.cannonadeDesktop ?? null),
    }
  }
  const web = webTransport(takeToken())
  return {
    api: createApiClient(web),
    mode: 'web',
    desktop: null,
    connection: { get: () => web.connection(), subscribe: (cb) => web.onConnection(cb) },
    files: webFiles(web.token),
  }
}

const env = environment()
liveStore.attach(env.api)
// Desktop menu items (File → New run, View → History …) navigate the page.
env.desktop?.onNavigate((route) => {
  window.location.hash = `#${route}`
})

const root = document.getElementById('root')
if (!root) throw new Error('no #root element')
createRoot(root).render(
  <StrictMode>
    <ApiProvider env={env}>
      <App />
    </ApiProvider>
  </StrictMode>,
)
