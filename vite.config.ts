// The renderer build (React + recharts). Output: dist/renderer, served by `cannonade serve` and
// loaded by Electron through its app:// protocol; `base: './'` keeps asset URLs relative so both
// work. The build writes the CSP into index.html as a <meta> tag (Electron gets no HTTP headers);
// the dev server leaves it out because its HMR client needs inline scripts.
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { CSP_META } from './engine/api/csp.ts'

function cspMeta(): Plugin {
  return {
    name: 'cannonade-csp-meta',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: () => [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP_META },
          injectTo: 'head-prepend',
        },
      ],
    },
  }
}

// `npm run dev` in a browser: proxy the Api to a running `cannonade serve` (CANNONADE_DEV_API=http://127.0.0.1:PORT).
const devApi = process.env.CANNONADE_DEV_API

export default defineConfig({
  root: 'renderer',
  base: './',
  publicDir: '../resources/public',
  plugins: [react(), cspMeta()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: true,
    // recharts is the bulk of the app; it loads with the first chart, not with the first paint.
    chunkSizeWarningLimit: 800,
  },
  server: {
    port: 5173,
    strictPort: false,
    proxy: devApi ? { '/api': { target: devApi, ws: true, changeOrigin: true } } : undefined,
  },
})
