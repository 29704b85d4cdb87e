/** Tags as typed ("a, b, a"): trimmed, without blanks or repeats, in the order first typed. */
export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ]
}
