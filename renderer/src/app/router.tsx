// Hash routing: works the same from http://127.0.0.1 (web mode) and from the app:// protocol in
// Electron, with no server-side routes. `#/runs/7`, `#/compare?runs=3,4`, `#/new?url=…`.
import { useSyncExternalStore, type AnchorHTMLAttributes, type ReactNode } from 'react'

export interface Route {
  path: string[]
  query: URLSearchParams
  href: string
}

function subscribe(cb: () => void): () => void {
  window.addEventListener('hashchange', cb)
  return () => window.removeEventListener('hashchange', cb)
}

const getHash = () => window.location.hash

export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/'
  const [pathPart = '/', queryPart = ''] = raw.split('?', 2)
  return {
    path: pathPart.split('/').filter(Boolean).map(decodeURIComponent),
    query: new URLSearchParams(queryPart),
    href: raw,
  }
}

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, getHash)
  return parseRoute(hash)
}

export function navigate(to: string): void {
  window.location.hash = to.startsWith('#') ? to : `#${to}`
}

export function Link({
  to,
  children,
  ...rest
}: { to: string; children: ReactNode } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  return (
    <a href={`#${to}`} {...rest}>
      {children}
    </a>
  )
}
