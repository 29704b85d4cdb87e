// A HAR file (HTTP Archive 1.2, as browsers' "Save all as HAR" and Playwright's recordHar write it)
// as requests: the page's own requests in the order they started. Static assets (scripts, style
// sheets, images, fonts, media) and other sites' requests (analytics, CDNs) are left out unless
// asked for; requests a step cannot replay (WebSockets, other schemes, unanswered) always are.
import { z } from 'zod'
import { ConfigError, configErrorFromZod } from '../config/errors.ts'
import type { ReadRequests, SourceRequest } from './types.ts'

const nameValue = z.object({ name: z.string(), value: z.string() })
const HarSchema = z.object({
  log: z.object(
    {
      pages: z.array(z.object({ title: z.string().optional() })).optional(),
      entries: z.array(
        z.object({
          startedDateTime: z.string().optional(),
          _resourceType: z.string().optional(),
          request: z.object({
            method: z.string(),
            url: z.string(),
            headers: z.array(nameValue),
            postData: z
              .object({
                mimeType: z.string().optional(),
                text: z.string().optional(),
                params: z.array(z.object({ name: z.string(), value: z.string().optional() })).optional(),
              })
              .optional(),
          }),
          response: z
            .object({
              status: z.number(),
              content: z.object({ mimeType: z.string().optional() }).optional(),
            })
            .optional(),
        }),
        { error: 'must be a list of requests and responses' },
      ),
    },
    { error: 'is missing: this is not a HAR file (one holds { "log": { "entries": [...] } })' },
  ),
})
type Entry = z.output<typeof HarSchema>['log']['entries'][number]

export interface HarOptions {
  keepStatic?: boolean
  keepThirdParty?: boolean
}

const STATIC_TYPES = new Set([
  'script',
  'stylesheet',
  'image',
  'font',
  'media',
  'manifest',
  'texttrack',
  'icon',
])
const STATIC_MIME =
  /^(image|font|audio|video)\/|javascript|ecmascript|^text\/css|^application\/(font|x-font|wasm)/i
const STATIC_EXT =
  /\.(m?js|css|map|png|jpe?g|gif|svg|ico|webp|avif|bmp|woff2?|ttf|otf|eot|mp4|webm|mp3|ogg|wav|wasm)$/i

/** Resource types that are a page's own requests whatever they return. */
const CALL_TYPES = new Set(['document', 'fetch', 'xhr', 'eventsource', 'ping', 'beacon'])

/**
 * A script, style sheet, image, font or media file: by the browser's word for it, else (no type,
 * or "other", as Chromium calls a favicon it asks for again) by its content type or its name.
 */
function isStatic(entry: Entry, url: URL): boolean {
  const type = entry._resourceType?.toLowerCase()
  if (type && STATIC_TYPES.has(type)) return true
  if (type && CALL_TYPES.has(type)) return false
  const mime = entry.response?.content?.mimeType ?? ''
  return STATIC_MIME.test(mime) || STATIC_EXT.test(url.pathname)
}

const TWO_PART_SUFFIX = new Set(['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'or', 'ne', 'go'])

/**
 * The site a host belongs to, as browsers group first and third parties: approximately the
 * registrable domain (api.shop.example and www.shop.example are one site; shop.co.uk keeps three
 * labels). An IP address or a single-label host is its own site. No public suffix list is bundled:
 * a host on a suffix it does not know may count as its neighbours' site.
 */
export function siteOf(hostname: string): string {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host.includes(':') || /^\d+(\.\d+){3}$/.test(host) || !host.includes('.')) return host
  const labels = host.split('.')
  const keep = labels.length > 2 && labels.at(-1)!.length === 2 && TWO_PART_SUFFIX.has(labels.at(-2)!) ? 3 : 2
  return labels.slice(-keep).join('.')
}

function parseHar(text: string): Entry[] {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    throw new ConfigError([
      {
        field: '',
        message: `is not a HAR file: not JSON (${err instanceof Error ? err.message : String(err)}). Save one from the browser's network panel ("Save all as HAR")`,
      },
    ])
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ConfigError([
      { field: '', message: 'is not a HAR file: a HAR file is a JSON object with "log"' },
    ])
  const parsed = HarSchema.safeParse(raw)
  if (!parsed.success) throw configErrorFromZod(parsed.error)
  return parsed.data.log.entries
}

function body(entry: Entry): string | null {
  const data = entry.request.postData
  if (!data) return null
  if (data.text !== undefined) return data.text
  if (!data.params) return null
  return data.params
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value ?? '')}`)
    .join('&')
}

/** The first party: the first page loaded (a document), else the first request. */
function firstPartyOf(entries: readonly Entry[]): URL | null {
  const page =
    entries.find((e) => e._resourceType === 'document') ??
    entries.find((e) => /text\/html/.test(e.response?.content?.mimeType ?? '')) ??
    entries[0]
  try {
    return page ? new URL(page.request.url) : null
  } catch {
    return null
  }
}

type Reason = 'static' | 'third' | 'socket' | 'scheme' | 'unanswered'

function reasonToLeaveOut(e: Entry, url: URL, site: string, opts: HarOptions): Reason | null {
  const upgrade = e.request.headers.some((h) => h.name.toLowerCase() === 'upgrade')
  if (
    e._resourceType === 'websocket' ||
    e.response?.status === 101 ||
    upgrade ||
    /^wss?:$/.test(url.protocol)
  )
    return 'socket'
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'scheme'
  if (!e.response || e.response.status <= 0) return 'unanswered'
  if (!opts.keepThirdParty && siteOf(url.hostname) !== site) return 'third'
  if (!opts.keepStatic && isStatic(e, url)) return 'static'
  return null
}

function leftOutNotes(left: Map<Reason, URL[]>): string[] {
  const notes: string[] = []
  const count = (r: Reason) => left.get(r)?.length ?? 0
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? '' : 's'}`
  if (count('static'))
    notes.push(
      `left out ${n(count('static'), 'static asset')} (scripts, style sheets, images, fonts, media): --keep-static keeps them`,
    )
  if (count('third')) {
    const hosts = [...new Set(left.get('third')!.map((u) => u.host))]
    notes.push(
      `left out ${n(count('third'), 'request')} to other sites (${hosts.slice(0, 5).join(', ')}${hosts.length > 5 ? ', …' : ''}): --keep-third-party keeps them, a target per site`,
    )
  }
  if (count('socket'))
    notes.push(`left out ${n(count('socket'), 'WebSocket')}: a step sends HTTP requests only`)
  if (count('unanswered'))
    notes.push(
      `left out ${n(count('unanswered'), 'request')} the browser got no answer to (blocked or cancelled)`,
    )
  if (count('scheme'))
    notes.push(
      `left out ${n(count('scheme'), 'request')} that ${count('scheme') === 1 ? 'was' : 'were'} not http or https (data:, blob:…)`,
    )
  return notes
}

/** The requests of a HAR file worth replaying, in the order they started. */
export function readHar(text: string, opts: HarOptions = {}): ReadRequests {
  const entries = parseHar(text)
  const first = firstPartyOf(entries)
  if (!first)
    throw new ConfigError([{ field: 'log.entries', message: 'is empty: the HAR holds no requests' }])
  const site = siteOf(first.hostname)
  const left = new Map<Reason, URL[]>()
  const requests: SourceRequest[] = []
  const ordered = entries
    .map((e, i) => ({ e, i, t: Date.parse(e.startedDateTime ?? '') }))
    .sort((a, b) => (Number.isFinite(a.t) && Number.isFinite(b.t) && a.t !== b.t ? a.t - b.t : a.i - b.i))
  for (const { e, i } of ordered) {
    let url: URL
    try {
      url = new URL(e.request.url)
    } catch {
      throw new ConfigError([
        { field: `log.entries.${i}.request.url`, message: `is not a URL: "${e.request.url}"` },
      ])
    }
    const reason = reasonToLeaveOut(e, url, site, opts)
    if (reason) {
      // Appended, not copied: 100,000 static assets once took minutes here.
      const list = left.get(reason) ?? []
      list.push(url)
      left.set(reason, list)
      continue
    }
    requests.push({
      method: e.request.method.toUpperCase(),
      url: url.toString(),
      headers: e.request.headers.map((h) => [h.name, h.value]),
      body: body(e),
      ...(e.response ? { status: e.response.status } : {}),
    })
  }
  if (requests.length === 0)
    throw new ConfigError([
      {
        field: 'log.entries',
        message: `holds no request to replay (${leftOutNotes(left).join('; ') || 'none'})`,
      },
    ])
  return { requests, notes: leftOutNotes(left), firstParty: first.origin, name: `HAR: ${first.host}` }
}
