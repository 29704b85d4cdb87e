// Terminal output is text: whatever came from a user or a target (run names, tags, notes, target
// names, error messages, response snippets, URLs) is printed with its control characters escaped,
// so a stored `ESC[2J`, an OSC title, a CR that rewrites a line or a NUL reaches the terminal as
// visible characters. `printable` escapes one value (its line breaks too: a note cannot forge a
// line); `textStream` escapes every string a command writes, keeping the CLI's own newlines and its
// progress line's "\r ESC[2K" prefix, so nothing printed raw slips past a forgotten call.

// C0 (NUL…US, with TAB, CR, LF), DEL, C1, and the Unicode line separators and direction overrides.
// eslint-disable-next-line no-control-regex -- these are the characters escaped
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
// eslint-disable-next-line no-control-regex -- these are the characters escaped
const CONTROL_BUT_LF = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
const NAMED: Record<string, string> = {
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\u001b': '\\e',
  '\u0000': '\\0',
}

function escape(c: string): string {
  const named = NAMED[c]
  if (named !== undefined) return named
  const code = c.charCodeAt(0)
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`
}

/** One value as text for a terminal: every control character (line breaks too) escaped. */
export function printable(value: string): string {
  return value.replace(CONTROL, escape)
}

/** `\u001b` for ESC: valid inside a JSON string as well as readable (the --json outputs). */
function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
}

/**
 * A block of the CLI's own lines: control characters escaped as `\uXXXX` (so a --json output stays
 * JSON: JSON.stringify leaves DEL and C1 raw), its newlines kept.
 */
export function printableLines(text: string): string {
  return text.replace(CONTROL_BUT_LF, unicodeEscape)
}

// What the CLI itself writes at the start of a progress line: back to the line's start, clear it.
const PROGRESS = '\r\u001b[2K'

/** `stream` whose string writes are escaped (printableLines), the progress prefix kept. */
export function textStream<S extends NodeJS.WritableStream>(stream: S): S {
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    let out = chunk
    if (typeof chunk === 'string')
      out = chunk.startsWith(PROGRESS)
        ? PROGRESS + printableLines(chunk.slice(PROGRESS.length))
        : printableLines(chunk)
    return (stream.write as (...args: unknown[]) => boolean).call(stream, out, ...rest)
  }
  return new Proxy(stream, {
    get(target, key) {
      if (key === 'write') return write
      const value: unknown = Reflect.get(target, key, target)
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
    },
  })
}
