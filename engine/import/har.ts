// A HAR file (HTTP Archive 1.2, as browsers' "Save all as HAR" and Playwright's recordHar write it)
// as requests: the page's own requests in the order they started. Static assets (scripts, style
// sheets, images, fonts, media) and other sites' requests (analytics, CDNs) are left out unless
// asked for; requests a step cannot replay (WebSockets, other schemes, unanswered) always are. As a
// user means it (issue 28): what the browser served from its cache or memory never reached the
// server, so it is left out and listed; a reload's conditional headers (If-None-Match,
// If-Modified-Since…) are dropped unless asked for, since with them the server answers 304 to
// what the browser had, and a recorded 304 is then no answer to expect.
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
          /** Chromium's DevTools: 'memory' or 'disk' when the browser answered from its cache. */
          _fromCache: z.string().optional(),
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
              /** Bytes that came over the network (Chromium, Playwright): 0 when the cache answered. */
              _transferSize: z.number().optional(),
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
  /** Keep If-None-Match, If-Modified-Since and the other conditional headers (dropped by default). */
  keepConditional?: boolean
}

/** Request headers that make an answer depend on what the browser had cached (RFC 9110 §13.1). */
const CONDITIONAL = new Set([
  'if-none-match',
  'if-modified-since',
  'if-match',
  'if-unmodified-since',
  'if-range',
])

/** An entry the browser answered from its cache or memory: nothing of it reached the server. */
function fromCache(e: Entry): boolean {
  if (e._fromCache !== undefined && e._fromCache !== '') return true
  return e.response?._transferSize === 0 && (e.response.status ?? 0) > 0
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

type Reason = 'static' | 'third' | 'socket' | 'scheme' | 'unanswered' | 'cache'

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
  if (fromCache(e)) return 'cache'
  if (!opts.keepThirdParty && siteOf(url.hostname) !== site) return 'third'
  if (!opts.keepStatic && isStatic(e, url)) return 'static'
  return null
}

function leftOutNotes(left: Map<Reason, URL[]>): string[] {
  const notes: string[] = []
  const count = (r: Reason) => left.get(r)?.length ?? 0
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? '' : 's'}`
  if (count('cache')) {
    const byPath = new Map<string, number>()
    for (const u of left.get('cache')!) byPath.set(u.pathname, (byPath.get(u.pathname) ?? 0) + 1)
    const list = [...byPath].map(([p, k]) => (k > 1 ? `${p} ×${k}` : p))
    notes.push(
      `left out ${n(count('cache'), 'request')} the browser answered from its cache or memory (the server never saw ${count('cache') === 1 ? 'it' : 'them'}): ${list.slice(0, 8).join(', ')}${list.length > 8 ? ', …' : ''}`,
    )
  }
  // Said without naming a command's flag: the app shows these beside its own checkboxes.
  if (count('static'))
    notes.push(
      `left out ${n(count('static'), 'static asset')} (scripts, style sheets, images, fonts, media): keep static assets to replay them`,
    )
  if (count('third')) {
    const hosts = [...new Set(left.get('third')!.map((u) => u.host))]
    notes.push(
      `left out ${n(count('third'), 'request')} to other sites (${hosts.slice(0, 5).join(', ')}${hosts.length > 5 ? ', …' : ''}): keep other sites' requests to replay them, a target per site`,
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
  let conditional = 0
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
    const headers = e.request.headers.filter(
      (h) => opts.keepConditional || !CONDITIONAL.has(h.name.toLowerCase()),
    )
    const dropped = headers.length < e.request.headers.length
    if (dropped) conditional++
    // Without its conditional headers the request gets the whole answer, not the 304 recorded.
    const status = e.response && !(dropped && e.response.status === 304) ? e.response.status : undefined
    requests.push({
      method: e.request.method.toUpperCase(),
      url: url.toString(),
      headers: headers.map((h) => [h.name, h.value]),
      body: body(e),
      ...(status !== undefined ? { status } : {}),
    })
  }
  const notes = leftOutNotes(left)
  if (conditional)
    notes.push(
      `dropped the conditional headers (If-None-Match, If-Modified-Since…) of ${conditional} request${conditional === 1 ? '' : 's'}: with them the server answers 304 to what the browser had cached; keep conditional headers to send them`,
    )
  if (requests.length === 0)
    throw new ConfigError([
      {
        field: 'log.entries',
        message: `holds no request to replay (${leftOutNotes(left).join('; ') || 'none'})`,
      },
    ])
  return { requests, notes, firstParty: first.origin, name: `HAR: ${first.host}` }
}
