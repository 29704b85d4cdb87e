// The navigation bar's entries. The end-to-end page objects (e2e/pages/pages.ts) take their names
// from here, so renaming or removing an entry fails the typecheck there instead of a locator
// waiting for a test id that no longer exists.
export const NAV = [
  { to: '/new', label: 'New run', match: 'new', testId: 'nav-new' },
  { to: '/live', label: 'Live', match: 'live', testId: 'nav-live' },
  { to: '/runs', label: 'History', match: 'runs', testId: 'nav-history' },
  { to: '/studies', label: 'Studies', match: 'studies', testId: 'nav-studies' },
  { to: '/compare', label: 'Compare', match: 'compare', testId: 'nav-compare' },
  { to: '/stacks', label: 'Stacks', match: 'stacks', testId: 'nav-stacks' },
  { to: '/settings', label: 'Settings', match: 'settings', testId: 'nav-settings' },
] as const

/** An entry by the name in its test id: 'history' for `nav-history`. */
export type NavName = (typeof NAV)[number]['testId'] extends `nav-${infer N}` ? N : never
