// The renderer's Content-Security-Policy, one source for the HTTP header (web mode), the <meta>
// tag the vite build writes (Electron loads files, no headers) and the Electron session.
// `connect-src` is the app's own origin and its event socket: the wizard's "does it answer" check
// goes through the engine (targets.probe), never from the page. Styles allow 'unsafe-inline'
// because recharts sets style attributes.
// Scripts come only from the app's own origin: no inline script, no eval.
const directives = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
]

/** For a <meta http-equiv> tag (frame-ancestors is not allowed there). */
export const CSP_META = directives.join('; ')

/** For the HTTP header. */
export const CSP = [...directives, "frame-ancestors 'none'"].join('; ')
