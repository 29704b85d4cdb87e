// The configs the bad-input tests (bad-input-*.test.ts) are built from: a valid one-target,
// 4-connection, 10 s config, and builders for the part a case changes (a target, a scenario's
// steps, a load), with text of any size.
export type Doc = Record<string, unknown>
export const URL_ = 'http://127.0.0.1:9/'
export const target = (extra: Doc = {}): Doc => ({ name: 'a', url: URL_, ...extra })
export const config = (extra: Doc = {}, load: Doc = {}): Doc => ({
  version: 1,
  name: 'bad',
  targets: [target()],
  load: { connections: 4, duration: 10, ...load },
  ...extra,
})
export const withTarget = (t: Doc, extra: Doc = {}) => config({ targets: [target(t)], ...extra })
export const step = (s: Doc): Doc => ({ name: 's', path: '/x', ...s })
export const scenario = (...steps: Doc[]) => withTarget({ steps })
export const big = (bytes: number) => 'x'.repeat(bytes)
