// Shell text as a POSIX shell (bash) splits it into commands and words: what browsers' "Copy as
// cURL" writes (single quotes, $'…' with escapes, line continuations, several commands joined by
// ";" or newlines). Nothing is evaluated: a variable or command substitution is refused, since the
// import cannot know its value.
import { ConfigError } from '../config/errors.ts'

export interface ShellCommand {
  words: string[]
  /** The line (from 1) the command starts on, for messages. */
  line: number
  /** Words after a pipe or a redirection, left out (`| jq .`, `> out.json`). */
  dropped: string[]
}

const fail = (line: number, message: string): never => {
  throw new ConfigError([{ field: '', message: `line ${line}: ${message}` }])
}

const C_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
}

/** bash's $'…': the escape at text[i] (after the backslash), as [characters, length read]. */
function cEscape(text: string, i: number): [string, number] {
  const c = text[i] ?? ''
  if (c in C_ESCAPES) return [C_ESCAPES[c]!, 1]
  const hex = (re: RegExp): [string, number] | null => {
    const m = re.exec(text.slice(i + 1, i + 10))
    if (!m) return null
    const code = parseInt(m[0], 16)
    // bash prints nothing for a code point past Unicode's last (\U7FFFFFFF): the import says so.
    if (code > 0x10ffff)
      throw new ConfigError([
        { field: '', message: `\\${c}${m[0]} is not a character (Unicode ends at \\U0010FFFF)` },
      ])
    return [String.fromCodePoint(code), 1 + m[0].length]
  }
  if (c === 'x') return hex(/^[0-9A-Fa-f]{1,2}/) ?? ['\\x', 1]
  if (c === 'u') return hex(/^[0-9A-Fa-f]{1,4}/) ?? ['\\u', 1]
  if (c === 'U') return hex(/^[0-9A-Fa-f]{1,8}/) ?? ['\\U', 1]
  const octal = /^[0-7]{1,3}/.exec(text.slice(i, i + 3))
  if (octal) return [String.fromCharCode(parseInt(octal[0], 8)), octal[0].length]
  return ['\\' + c, 1]
}

interface State {
  text: string
  i: number
  line: number
}

/** A `$` in unquoted or double-quoted text: refused when it starts an expansion. */
function dollar(s: State): void {
  const next = s.text[s.i + 1] ?? ''
  if (/[A-Za-z_{(0-9@*#?$!-]/.test(next)) {
    const what = /^\$(\{[^}]*\}?|\([^)]*\)?|[A-Za-z_][A-Za-z0-9_]*|.)/.exec(s.text.slice(s.i))?.[0] ?? '$'
    fail(s.line, `${what} is a shell expansion the import cannot evaluate: write its value instead`)
  }
}

function singleQuoted(s: State, start: number): string {
  const end = s.text.indexOf("'", s.i)
  if (end < 0) fail(start, "a quote ' is not closed")
  const out = s.text.slice(s.i, end)
  s.line += out.split('\n').length - 1
  s.i = end + 1
  return out
}

function ansiQuoted(s: State, start: number): string {
  let out = ''
  for (;;) {
    const c = s.text[s.i]
    if (c === undefined) return fail(start, "a quote $' is not closed")
    s.i++
    if (c === "'") return out
    if (c === '\n') s.line++
    if (c !== '\\') {
      out += c
      continue
    }
    const [chars, length] = cEscape(s.text, s.i)
    out += chars
    s.i += length
  }
}

function doubleQuoted(s: State, start: number): string {
  let out = ''
  for (;;) {
    const c = s.text[s.i]
    if (c === undefined) return fail(start, 'a quote " is not closed')
    if (c === '"') {
      s.i++
      return out
    }
    if (c === '`') fail(s.line, '`…` is a command substitution the import cannot evaluate')
    if (c === '$') dollar(s)
    if (c === '\n') s.line++
    if (c === '\\' && /[$`"\\\n]/.test(s.text[s.i + 1] ?? '')) {
      if (s.text[s.i + 1] !== '\n') out += s.text[s.i + 1]
      else s.line++
      s.i += 2
      continue
    }
    out += c
    s.i++
  }
}

/**
 * The commands of `text` with their words. Quotes and escapes are resolved as bash does; a word
 * that is only `\` + newline joins lines; `#` starts a comment where a word would start.
 */
export function splitCommands(input: string): ShellCommand[] {
  const s: State = { text: input.replace(/\r\n?/g, '\n'), i: 0, line: 1 }
  if (/\^\n|\^"/.test(s.text))
    fail(1, 'this looks like "Copy as cURL (cmd)" for Windows: copy as cURL (bash) instead')
  const commands: ShellCommand[] = []
  let current: ShellCommand = { words: [], line: 1, dropped: [] }
  let dropping = false
  let dropOne = false
  let word: string | null = null
  const endWord = () => {
    if (word === null) return
    if (dropping || dropOne) current.dropped.push(word)
    else current.words.push(word)
    word = null
    dropOne = false
  }
  const endCommand = () => {
    endWord()
    if (current.words.length || current.dropped.length) commands.push(current)
    current = { words: [], line: s.line, dropped: [] }
    dropping = false
    dropOne = false
  }
  while (s.i < s.text.length) {
    const c = s.text[s.i]!
    const start = s.line
    if (c === '\\' && s.text[s.i + 1] === '\n') {
      s.i += 2
      s.line++
      continue
    }
    if (c === ' ' || c === '\t') {
      endWord()
      s.i++
      continue
    }
    if (c === '\n' || c === ';' || c === '&' || c === '|') {
      const double = s.text.startsWith('&&', s.i) || s.text.startsWith('||', s.i)
      s.i += double ? 2 : 1
      if (c === '|' && !double) {
        // A pipe's later commands read the response, they make no request.
        endWord()
        dropping = true
        continue
      }
      endCommand()
      if (c === '\n') s.line++
      current.line = s.line
      continue
    }
    if (word === null && c === '#') {
      while (s.i < s.text.length && s.text[s.i] !== '\n') s.i++
      continue
    }
    const redirect = /^(\d?>>?|<)/.exec(s.text.slice(s.i, s.i + 3))
    if (redirect && (word === null || c === '>' || c === '<')) {
      // A redirection and its file: not part of the request.
      s.i += redirect[0].length
      endWord()
      dropOne = true
      continue
    }
    word ??= ''
    if (c === "'") {
      s.i++
      word += singleQuoted(s, start)
    } else if (c === '$' && s.text[s.i + 1] === "'") {
      s.i += 2
      word += ansiQuoted(s, start)
    } else if (c === '"' || (c === '$' && s.text[s.i + 1] === '"')) {
      s.i += c === '$' ? 2 : 1
      word += doubleQuoted(s, start)
    } else if (c === '`') {
      fail(s.line, '`…` is a command substitution the import cannot evaluate')
    } else if (c === '$') {
      dollar(s)
      word += c
      s.i++
    } else if (c === '\\') {
      word += s.text[s.i + 1] ?? ''
      s.i += 2
    } else {
      word += c
      s.i++
    }
  }
  endCommand()
  return commands
}
