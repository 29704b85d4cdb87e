// What the wizard's import sends the engine (scenarios:import): the kind a file or pasted text
// looks like, and a HAR without its responses' bodies. A HAR's bulk is what the browser received
// (scripts, pages, images as text); the import reads only the requests, and web mode's Api takes
// at most 4 MB a call (engine/server/api-route.ts), so the bodies are dropped before sending.
import type { ImportKind } from '#engine/api/types.ts'

/** The kind a source probably is, from its file name and its first characters. */
export function guessKind(text: string, fileName: string | null): ImportKind | null {
  const name = (fileName ?? '').toLowerCase()
  if (name.endsWith('.har')) return 'har'
  const start = text.trimStart().slice(0, 2000)
  if (/^curl\s/.test(start) || /^#[^\n]*\n\s*curl\s/.test(start)) return 'curl'
  if (/"log"\s*:\s*\{/.test(start) && /"entries"/.test(text.slice(0, 200_000))) return 'har'
  if (/(^|\n)\s*"?openapi"?\s*:/.test(start) || /(^|\n)\s*"?swagger"?\s*:/.test(start)) return 'openapi'
  return null
}

type Loose = Record<string, unknown>
const isLoose = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A HAR's text without its responses' content and WebSocket messages; other text as it is. */
export function slimHar(text: string): string {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    return text // not JSON: the engine says what is wrong with it
  }
  const entries = isLoose(doc) && isLoose(doc.log) && Array.isArray(doc.log.entries) ? doc.log.entries : null
  if (!entries) return text
  for (const entry of entries as unknown[]) {
    if (!isLoose(entry)) continue
    delete entry._webSocketMessages
    const response = entry.response
    if (isLoose(response) && isLoose(response.content)) delete response.content.text
  }
  return JSON.stringify(doc)
}
