// Response framing checks shared by the load client's parser (response-parser.ts): a
// Content-Length that `+value` or parseInt would read (`abc`, `-1`, `2e0`) is a framing error, not
// a length, so a malformed response never counts as a success.

/** RFC 9110 Content-Length: digits only (a list, a sign or an exponent is a framing error). */
export function validContentLength(v: string): boolean {
  const n = v.length
  if (n === 0 || n > 15) return false
  for (let i = 0; i < n; i++) {
    const c = v.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  return true
}
